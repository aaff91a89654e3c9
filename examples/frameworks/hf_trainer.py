"""A tiny causal language model trained with the Hugging Face Trainer, as its documentation
trains one: it imports nothing from trainproof, and resumes only when given --resume.
`trainproof check` runs it as it is:

    trainproof check --kills 1 --resume-args '--resume' -- python examples/frameworks/hf_trainer.py --out {run_dir}

A one-layer GPT-2 (GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=64, n_positions=32))
built from its config after set_seed (nothing is downloaded), trained on a synthetic dataset made
on the spot from a seeded generator (80 rows of 16 tokens: counting sequences mod 64), batch 8,
32 steps of 10-batch epochs, on one CPU thread. The Trainer makes its own AdamW (weight decay 0.1, not on
biases or LayerNorm weights) and linear schedule, and saves checkpoint-N (model, optimizer,
scheduler, RNG states, trainer state) every 8 steps; no logging, no reports, no progress bar.
--resume calls trainer.train(resume_from_checkpoint=get_last_checkpoint(out)) when there is one.
The last line printed is `final-digest HEX`: sha256 over every tensor of the final state_dict.

--mistake plants one mistake where the Trainer leaves it to the user (the finding `check` names):
  decay-on-bias    optimizers=(AdamW(model.parameters(), weight_decay=0.1), None)
                   (weight-decay-on-bias-or-norm)
  unseeded         the model built before any seed, trusting the Trainer's set_seed, which runs
                   only once the model exists (unseeded-rng; determinism breaks)
  save-only-model  TrainingArguments(save_only_model=True): checkpoints without optimizer,
                   scheduler or RNG state, resumed all the same (resume-missing-optimizer-state)
  ignore-data-skip TrainingArguments(ignore_data_skip=True): a resume restarts the epoch's data
                   (resume-missing-data-position)
--stop-after N stops after step N without a kill, to try a resume by hand."""
import argparse
import hashlib
import os

import torch
from transformers import (GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments,
                          set_seed)
from transformers.trainer_utils import get_last_checkpoint
from transformers.utils import logging

MISTAKES = ("none", "decay-on-bias", "unseeded", "save-only-model", "ignore-data-skip")
STEPS, BATCH, SAMPLES, LENGTH, CKPT_EVERY, SEED = 32, 8, 80, 16, 8, 0


class Counting(torch.utils.data.Dataset):
    """Rows counting from a random start by a random stride, mod the vocabulary."""

    def __init__(self):
        g = torch.Generator().manual_seed(SEED)
        start = torch.randint(0, 64, (SAMPLES, 1), generator=g)
        stride = torch.randint(1, 4, (SAMPLES, 1), generator=g)
        self.rows = (start + stride * torch.arange(LENGTH)) % 64

    def __len__(self):
        return SAMPLES

    def __getitem__(self, i):
        return {"input_ids": self.rows[i], "labels": self.rows[i]}


class StopAfter(TrainerCallback):
    def __init__(self, step):
        self.step = step

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step == self.step:
            control.should_training_stop = True


def digest(model):
    """sha256 over the bytes of every tensor of the state_dict, in name order."""
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="checkpoint folder (the Trainer's output_dir)")
    p.add_argument("--resume", action="store_true", help="resume from the newest checkpoint-N in --out")
    p.add_argument("--mistake", default="none", choices=MISTAKES)
    p.add_argument("--stop-after", type=int, default=0, help="stop after this step (no kill)")
    args = p.parse_args()
    logging.set_verbosity_error()
    logging.disable_progress_bar()
    torch.set_num_threads(1)  # a tiny model: one thread is fastest, and the digest then holds on any core count

    if args.mistake != "unseeded":
        set_seed(SEED)
    model = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=64, n_positions=32))
    training = TrainingArguments(
        output_dir=args.out, max_steps=STEPS, per_device_train_batch_size=BATCH, learning_rate=5e-3,
        weight_decay=0.1, seed=SEED, use_cpu=True, dataloader_num_workers=0,
        save_strategy="steps", save_steps=CKPT_EVERY, logging_strategy="no", report_to=[], disable_tqdm=True,
        save_only_model=args.mistake == "save-only-model", ignore_data_skip=args.mistake == "ignore-data-skip")
    optimizers = (None, None)
    if args.mistake == "decay-on-bias":
        optimizers = (torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.1), None)
    trainer = Trainer(model=model, args=training, train_dataset=Counting(), optimizers=optimizers,
                      callbacks=[StopAfter(args.stop_after)] if args.stop_after else [])
    last = get_last_checkpoint(args.out) if args.resume and os.path.isdir(args.out) else None
    trainer.train(resume_from_checkpoint=last)
    print(f"stopped after step {trainer.state.global_step}")
    print(f"final-digest {digest(trainer.model)}")


if __name__ == "__main__":
    main()
