"""A LightningModule fit by the Lightning Trainer, as its documentation has it: it imports nothing
from trainproof, and resumes only when given --resume. `trainproof check` runs it as it is:

    trainproof check --kills 1 --resume-args '--resume' -- python examples/frameworks/lightning_loop.py --out {run_dir}

An MLP with dropout, AdamW (no decay on biases), a warmup-then-linear LambdaLR stepped per step
("interval": "step"), a DataLoader over a seeded synthetic TensorDataset shuffled by a seeded
generator: 32 steps of 8-batch epochs on one CPU thread. ModelCheckpoint(every_n_train_steps=8,
save_last=True) writes last.ckpt at each epoch's end; --resume calls fit(..., ckpt_path="last").
Lightning's checkpoint holds no RNG state, so on_save_checkpoint adds torch's and the shuffling
generator's, and on_load_checkpoint restores them (Lightning's place for extra state).
The last line printed is `final-digest HEX`: sha256 over every tensor of the final state_dict.

--mistake plants one mistake where Lightning leaves it to the user (the finding `check` names):
  decay-on-bias        configure_optimizers: AdamW(self.parameters()) (weight-decay-on-bias-or-norm)
  scheduler-per-epoch  configure_optimizers returns ([optimizer], [scheduler]): Lightning's
                       default interval, "epoch", for a schedule sized in steps (scheduler-per-epoch)
  no-zero-grad         manual optimization (automatic_optimization = False) whose training_step
                       never calls optimizer.zero_grad() (zero-grad-missing)
  no-rng-state         on_save_checkpoint adds no RNG state (checkpoint-missing-state)
--stop-after N stops after step N without a kill, to try a resume by hand."""
import argparse
import hashlib
import os
import warnings

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback, ModelCheckpoint
from torch.utils.data import DataLoader, TensorDataset

MISTAKES = ("none", "decay-on-bias", "scheduler-per-epoch", "no-zero-grad", "no-rng-state")
STEPS, WARMUP, BATCH, SAMPLES, CKPT_EVERY, SEED = 32, 4, 8, 64, 8, 0


class MLP(L.LightningModule):
    def __init__(self, mistake, shuffling):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))
        self.mistake, self.shuffling = mistake, shuffling
        self.automatic_optimization = mistake != "no-zero-grad"

    def training_step(self, batch, index):
        loss = F.cross_entropy(self.net(batch[0]), batch[1])
        if not self.automatic_optimization:  # the mistake: no self.optimizers().zero_grad()
            self.manual_backward(loss)
            self.optimizers().step()
            self.lr_schedulers().step()
        return loss

    def configure_optimizers(self):
        if self.mistake == "decay-on-bias":
            groups = self.parameters()
        else:
            groups = [{"params": [p for p in self.parameters() if p.ndim >= 2], "weight_decay": 0.05},
                      {"params": [p for p in self.parameters() if p.ndim < 2], "weight_decay": 0.0}]
        optimizer = torch.optim.AdamW(groups, lr=1e-2, weight_decay=0.05)
        scheduler = torch.optim.lr_scheduler.LambdaLR(
            optimizer, lambda s: (s + 1) / WARMUP if s < WARMUP else max(0.0, (STEPS - s) / (STEPS - WARMUP)))
        if self.mistake == "scheduler-per-epoch":
            return [optimizer], [scheduler]
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}

    def on_save_checkpoint(self, checkpoint):
        if self.mistake != "no-rng-state":
            checkpoint["rng"] = {"torch": torch.get_rng_state(), "shuffling": self.shuffling.get_state()}

    def on_load_checkpoint(self, checkpoint):
        if "rng" in checkpoint:
            torch.set_rng_state(checkpoint["rng"]["torch"])
            self.shuffling.set_state(checkpoint["rng"]["shuffling"])


class StopAfter(Callback):
    def __init__(self, step):
        self.step = step

    def on_train_batch_end(self, trainer, *args):
        trainer.should_stop = trainer.should_stop or trainer.global_step == self.step


def digest(model):  # sha256 over the bytes of every tensor of the state_dict, in name order
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="checkpoint folder (ModelCheckpoint's dirpath)")
    p.add_argument("--resume", action="store_true", help="resume from last.ckpt in --out")
    p.add_argument("--mistake", default="none", choices=MISTAKES)
    p.add_argument("--stop-after", type=int, default=0, help="stop after this step (no kill)")
    args = p.parse_args()
    warnings.filterwarnings("ignore", module="lightning")
    torch.set_num_threads(1)  # a tiny model: one thread is fastest, and the digest then holds on any core count

    L.seed_everything(SEED, verbose=False)
    x = torch.randn(SAMPLES, 16, generator=torch.Generator().manual_seed(SEED))
    y = (x[:, :8].sum(1) > 0).long() + 2 * (x[:, 8:].sum(1) > 0).long()
    shuffling = torch.Generator().manual_seed(SEED)
    loader = DataLoader(TensorDataset(x, y), batch_size=BATCH, shuffle=True, generator=shuffling, num_workers=0)
    model = MLP(args.mistake, shuffling)
    callbacks = [ModelCheckpoint(dirpath=args.out, every_n_train_steps=CKPT_EVERY, save_last=True),
                 StopAfter(args.stop_after)]
    trainer = L.Trainer(max_steps=STEPS, accelerator="cpu", devices=1, logger=False, enable_progress_bar=False,
                        enable_model_summary=False, callbacks=callbacks)
    resume = args.resume and os.path.exists(os.path.join(args.out, "last.ckpt"))
    trainer.fit(model, loader, ckpt_path="last" if resume else None)
    print(f"stopped after step {trainer.global_step}")
    print(f"final-digest {digest(model)}")


if __name__ == "__main__":
    main()
