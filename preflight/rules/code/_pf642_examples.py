"""PF642 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_EMA = textwrap.dedent('''
    from accelerate import Accelerator
    from ema_pytorch import EMA


    class Trainer:
        def __init__(self, model, optimizer):
            self.accelerator = Accelerator()
            self.model, self.optimizer = self.accelerator.prepare(model, optimizer)
            if self.is_main:
                self.ema_model = EMA(model)

        @property
        def is_main(self):
            return self.accelerator.is_main_process

        def save_checkpoint(self, step):
            EARLY
            checkpoint = dict(model=self.accelerator.unwrap_model(self.model).state_dict(),
                              ema=self.ema_model.state_dict())PIN
            self.accelerator.save(checkpoint, f"model-{step}.pt")

        def train(self, loader, save_step=1000):
            for step, batch in enumerate(loader):
                self.accelerator.backward(self.model(batch))
                self.optimizer.step()
                self.optimizer.zero_grad()
                if self.is_main:
                    self.ema_model.update()
                if step % save_step == 0:
                    CALL
''')


def _ema(pin: str = "", early: str = "pass", call: str = "self.save_checkpoint(step)") -> str:
    return _EMA.replace("PIN", pin).replace("EARLY", early).replace("CALL", call)


PF642_BAD = [
    # held-out-30 (e2-tts-pytorch PR 17): the EMA model exists on the main process, the checkpoint reads it everywhere
    _ema(pin="  # error: PF642"),
]

PF642_GOOD = [
    # accelerate 496's answer: download on the main process, build on every process
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    if accelerator.is_main_process:
        download_data("s3://bucket/reviews", "/data")
    accelerator.wait_for_everyone()
    train_dataloader = DataLoader(ReviewsDataset("/data/train.jsonl"), batch_size=32, shuffle=True)
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=5)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    train_dataloader, model, optimizer = accelerator.prepare(train_dataloader, model, optimizer)
    model.train()
    for batch in train_dataloader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # e2-tts' fix: the checkpoint is saved on the main process only
    _ema(call="if self.is_main:\n                        self.save_checkpoint(step)"),
    # tricky-correct: an early return for the other processes inside the method
    _ema(early="if not self.is_main:\n            return"),
    # tricky-correct: a writer bound to None on every process first, names used under the same test
    textwrap.dedent('''
    from accelerate import Accelerator
    from torch.utils.tensorboard import SummaryWriter

    accelerator = Accelerator()
    writer = None
    if accelerator.is_main_process:
        writer = SummaryWriter("runs/exp")
        run_name = "exp"
    for step, batch in enumerate(loader):
        loss = model(batch)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if accelerator.is_main_process:
            writer.add_scalar(f"{run_name}/loss", loss.item(), step)
    if writer is not None:
        writer.close()
    '''),
    # mmmmayi/Grad-W IRM/Trainer/trainer.py (prec01): created under `if local_rank == 0`, read under
    # `if device == 0` where `device` is the parameter every caller fills with `local_rank`
    textwrap.dedent('''
    from torch.utils.tensorboard import SummaryWriter


    class Trainer:
        def __init__(self, model, loader, optimizer, local_rank):
            self.model, self.loader, self.optimizer = model, loader, optimizer
            if local_rank == 0:
                self.writer = SummaryWriter()

        def train_epoch(self, epoch, device):
            for batch in self.loader:
                self.optimizer.zero_grad()
                loss = self.model(batch)
                loss.backward()
                self.optimizer.step()
                if device == 0:
                    self.writer.add_scalar("train/loss", loss.item(), epoch)

        def train(self, local_rank, epochs):
            for epoch in range(epochs):
                self.train_epoch(epoch, local_rank)
    '''),
]
