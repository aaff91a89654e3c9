"""Each mutation of `trainproof mutate` (python/trainproof/mutate.py) on a snippet where it applies,
planted as the mistake it stands for, and on the correct code it is most likely to mistake for a
site, where it must find none.

    python tests/mutate_test.py
"""
import ast
import pathlib
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from trainproof import mutate  # noqa: E402

# mutation id -> (a snippet it applies to, a fragment the planted mistake holds, a snippet it must leave alone)
CASES = {
    "delete-zero-grad": ("opt.zero_grad()\nloss.backward()\n", "pass",
                         "def zero_grad(): pass\nzero_grad()\n"),  # a function of the script's own
    "delete-eval": ("model.eval()\n", "pass", "eval('1 + 1')\n"),  # the builtin
    "delete-train": ("model.train()\n", "pass", "model.train(False)\ntrain()\n"),  # train(False) is eval
    "delete-unscale": ("scaler.unscale_(opt)\n", "pass", "scaler.update()\n"),
    "delete-manual-seed": ("torch.manual_seed(0)\n", "pass", "random.seed(0)\ng = torch.Generator().manual_seed(0)\n"),
    "softmax-before-cross-entropy": ("loss = F.cross_entropy(logits, y)\n", "softmax(logits, dim=-1)",
                                     "loss = F.nll_loss(torch.log_softmax(logits, -1), y)\n"),
    "no-decay-group-decayed": ('opt = AdamW([{"params": a, "weight_decay": 0.1}, {"params": b, "weight_decay": 0.0}])\n',
                               '"weight_decay": (', 'opt = AdamW([{"params": a, "weight_decay": 0.1}])\n'),
    "scheduler-before-optimizer": ("opt.step()\nsched.step()\n", "sched.step(); opt.step()",
                                   "sched.step()\nopt.step()\n"),  # the mistake already: nothing to plant
    "scheduler-per-epoch": ("for epoch in range(3):\n    for x in data:\n        opt.step()\n        sched.step()\n",
                            "; sched.step()\n", "for epoch in range(3):\n    for x in data:\n        opt.step()\n    sched.step()\n"
                            "for x in data:\n    opt.step()\n    sched.step()\n"),  # per epoch already; no epochs
    "weights-only-false": ("ck = torch.load(p, weights_only=True)\n", "False)[1])",
                           "ck = torch.load(p, weights_only=False)\nck = pickle.load(f)\n"),
    "delete-no-grad": ("with torch.no_grad():\n    v = model(x)\n", "nullcontext()",
                       "with torch.enable_grad():\n    v = model(x)\n"),
    "drop-checkpoint-key": ('state = {"model": m, "optimizer": o}\ntorch.save(state, p)\n', '{"model": m}',
                            'meta = {"model": m, "optimizer": o}\nprint(meta)\n'),  # not what torch.save writes
    "delete-restore": ('opt.load_state_dict(ck["optimizer"])\n', "pass",
                       'model.load_state_dict(ck["model"])\n'),  # the model's: not a resume's extra state
    "save-only-model": ("args = TrainingArguments(output_dir=o, seed=1)\n", "seed=1, save_only_model=True)",
                        "args = TrainingArguments(output_dir=o, save_only_model=True)\n"),  # the mistake already
    "ignore-data-skip": ("args = TrainingArguments(out, ignore_data_skip=skip)\n", "ignore_data_skip=(",
                         "args = TrainingArguments(out, ignore_data_skip=True)\nargs = Namespace(out)\n"),
    "unseedable-sampler": ("c = DataLoaderConfiguration(use_seedable_sampler=True)\n", "use_seedable_sampler=(",
                           "c = DataLoaderConfiguration(**config)\n"  # what it sets cannot be told
                           "c = DataLoaderConfiguration(split_batches=True)\n"),  # off already: the default
    "atomic-save-made-direct": ('torch.save(s, p + ".tmp")\nos.replace(p + ".tmp", p)\n', "torch.save(s, (",
                                'torch.save(s, p)\nos.replace(q, r)\n'),  # a rename of something else
    "optimizer-lr-zero": ("opt = torch.optim.AdamW(model.parameters(), lr=1e-3)\n", "0.0)[1])",
                          "sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, lr=1)\n"),  # a scheduler's
    "optimizer-drops-a-parameter": ("opt = torch.optim.SGD(model.parameters(), lr=0.1)\n", "list(model.parameters())[1:]",
                                    "opt = torch.optim.SGD(groups, lr=0.1)\n"),  # its own groups: which to drop is not clear
    "freeze-after-optimizer": ("opt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
                               "; list(model.parameters())[0].requires_grad_(False)",
                               "opt = torch.optim.SGD(\n    model.parameters(), lr=0.1)\nsgd(model.parameters())\n"),
    "functional-training-true": ("h = F.dropout(h, 0.1, training=self.training)\n", "training=(",
                                 "h = F.dropout(h, 0.1, training=True)\nh = F.relu(h, inplace=self.training)\n"),
}


def plant_in(source, mutation_id):
    """The sites of one mutation in `source` (a file in a folder of its own), and each mutant's text."""
    with tempfile.TemporaryDirectory() as d:
        script = pathlib.Path(d) / "train.py"
        script.write_text(source)
        _, found, absent = mutate.mutants(script)
        mine = [i for i, (m, _, _, _) in enumerate(found) if m.id == mutation_id]
        texts = [mutate.plant(script, i, pathlib.Path(d) / f"m{i}").read_text() for i in mine]
        return texts, [m.id for m in absent]


class SchedulerPerEpochTest(unittest.TestCase):
    """The scheduler's step leaves the batch loop for the epoch's end, in each way a loop marks it,
    with every other line where it was (findings name lines). The mark stays where the step was: a
    step that never ran per batch (a branch of its own) makes the mutant not applicable, not a
    survivor of an extra step per epoch."""

    def test_after_the_batch_loop_or_into_the_epoch_branch(self):
        nested = "for epoch in range(3):\n    for x in data:\n        opt.step()\n        sched.step()\n        n += 1\n    log(epoch)\n"
        single = ("while step < 9:\n    opt.step()\n    sched.step()\n    step += 1\n"
                  "    if step % 3 == 0:\n        epoch += 1\n")
        for source, line in ((nested, "    sched.step(); "), (single, "        sched.step(); ")):
            texts, _ = plant_in(source, "scheduler-per-epoch")
            self.assertEqual(len(texts), 1, source)
            before, after = source.splitlines(), texts[0].splitlines()
            self.assertEqual(len(after), len(before))
            changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
            self.assertEqual(len(changed), 2, texts[0])  # the step's own line, and where it went
            # The step's own line: the mark (it runs where the per-step step would have), then nothing.
            self.assertTrue(after[changed[0]].strip().startswith("open(") and after[changed[0]].endswith("; pass"))
            self.assertTrue(after[changed[1]].startswith(line), texts[0])


class MutationTest(unittest.TestCase):
    def test_every_mutation_has_a_case(self):
        self.assertEqual(sorted(m.id for m in mutate.MUTATIONS), sorted(CASES))

    def test_each_plants_its_mistake_where_it_applies(self):
        for mid, (positive, planted, _) in CASES.items():
            with self.subTest(mid):
                texts, absent = plant_in(positive, mid)
                self.assertNotIn(mid, absent)
                self.assertEqual(len(texts), 1, f"{mid}: {len(texts)} sites in {positive!r}")
                self.assertIn(planted, texts[0])
                self.assertIn(mutate.MARK, texts[0])  # the planted line says it ran
                ast.parse(texts[0])
                # Every line number stays: a finding on the mutant names the script's line.
                self.assertEqual(texts[0].count("\n"), positive.count("\n"), texts[0])

    def test_each_leaves_the_correct_code_it_resembles(self):
        for mid, (_, _, negative) in CASES.items():
            with self.subTest(mid):
                texts, absent = plant_in(negative, mid)
                self.assertEqual(texts, [], f"{mid} planted into {negative!r}")
                self.assertIn(mid, absent)

    def test_the_default_weights_only_and_a_no_grad_decorator_are_sites_too(self):
        texts, _ = plant_in("ck = torch.load(p, map_location=d)\n", "weights-only-false")
        self.assertEqual(len(texts), 1)
        self.assertIn("torch.load(p, map_location=d, weights_only=False)", texts[0])
        texts, _ = plant_in("@torch.no_grad()\ndef estimate_loss():\n    return 1\n", "delete-no-grad")
        self.assertEqual(len(texts), 1)
        self.assertIn("functools').wraps(f)", texts[0])
        with tempfile.TemporaryDirectory() as d:  # the mark when the function runs, not when it is defined
            mark = pathlib.Path(d) / "ran"
            import os
            os.environ["TRAINPROOF_MUTANT_RAN"] = str(mark)
            try:
                scope = {"torch": None}
                exec(compile(texts[0], "train.py", "exec"), scope)
                self.assertFalse(mark.exists())
                self.assertEqual(scope["estimate_loss"](), 1)
                self.assertTrue(mark.exists())
            finally:
                del os.environ["TRAINPROOF_MUTANT_RAN"]

    def test_a_keyword_goes_after_the_last_argument_whatever_follows_it(self):
        source = "args = TrainingArguments(\n    out,  # where\n    seed=1,\n)\nx = 1\n"
        texts, _ = plant_in(source, "save-only-model")
        self.assertEqual(len(texts), 1)
        self.assertIn("seed=1, save_only_model=True,\n)", texts[0])
        self.assertEqual(texts[0].splitlines()[4], "x = 1")
        texts, _ = plant_in("ck = torch.load(\n    p,  # the newest\n)\n", "weights-only-false")
        self.assertIn("p, weights_only=False,  # the newest", texts[0])
        ast.parse(texts[0])

    def test_a_framework_seed_or_restore_is_a_site_too(self):
        for source, mid, planted in (("set_seed(0)\n", "delete-manual-seed", "pass"),
                                     ("L.seed_everything(0, verbose=False)\n", "delete-manual-seed", "pass"),
                                     ("accelerator.load_state(path)\n", "delete-restore", "pass"),
                                     ("a = transformers.Seq2SeqTrainingArguments(o)\n", "save-only-model",
                                      "save_only_model=True"),
                                     ("trainer.train(resume_from_checkpoint=last)\n", "delete-restore",
                                      "resume_from_checkpoint=("),
                                     ('trainer.fit(model, data, ckpt_path="last" if r else None)\n', "delete-restore",
                                      "ckpt_path=(")):
            with self.subTest(source):
                texts, _ = plant_in(source, mid)
                self.assertEqual(len(texts), 1, source)
                self.assertIn(planted, texts[0])
                ast.parse(texts[0])
        # Correct code they resemble: a seed of numpy's, a model's weights, a fresh training.
        for source, mid in (("np.random.seed(0)\nrandom.seed(0)\n", "delete-manual-seed"),
                            ("model.load_state_dict(sd)\ntrainer.train()\ntrainer.fit(model, ckpt_path=None)\n",
                             "delete-restore")):
            with self.subTest(source):
                self.assertEqual(plant_in(source, mid)[0], [])

    def test_a_multi_line_node_keeps_its_lines(self):
        source = textwrap.dedent('''\
            state = {"model": m,
                     "optimizer": o,
                     "step": s}
            torch.save(state, p)
            x = 1
            ''')
        texts, _ = plant_in(source, "drop-checkpoint-key")
        self.assertEqual(len(texts), 2)  # the optimizer and the step, one mutant each
        for t in texts:
            ast.parse(t)
            self.assertEqual(t.splitlines()[4], "x = 1")

    def test_a_module_the_script_imports_is_mutated_too(self):
        with tempfile.TemporaryDirectory() as d:
            (pathlib.Path(d) / "train.py").write_text("import loop\nloop.run()\n")
            (pathlib.Path(d) / "loop.py").write_text("def run():\n    opt.zero_grad()\n")
            (pathlib.Path(d) / "unused.py").write_text("opt.zero_grad()\n")
            folder, found, _ = mutate.mutants(pathlib.Path(d) / "train.py")
            self.assertEqual([f"{f.relative_to(folder)}:{n.lineno}" for m, f, n, _ in found
                              if m.id == "delete-zero-grad"], ["loop.py:2"])


if __name__ == "__main__":
    unittest.main()
