"""PF632 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""\
    import lightning as L
    import torch


    class Regressor(L.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.mse_loss(self.net(x), y)

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-3)
    {sched}
            return {{"optimizer": opt, "lr_scheduler": {{"scheduler": sched, "interval": "{interval}"}}}}

        def lr_scheduler_step(self, scheduler, metric):
    {step}
    """)

_ONECYCLE = ("        sched = torch.optim.lr_scheduler.OneCycleLR(\n"
             "            opt, max_lr=1e-3, total_steps=self.trainer.estimated_stepping_batches)")
_WARMUP = ("        sched = get_cosine_schedule_with_warmup(opt, 500, self.trainer.estimated_stepping_batches)")

PF632_BAD = (
    # 1. OpenSTL issue 113's shape: the epoch handed to a per-step OneCycleLR
    _MODULE.format(sched=_ONECYCLE, interval="step",
                   step="        scheduler.step(epoch=self.current_epoch)  # warning: PF632"),
    # 2. a transformers warmup schedule (a LambdaLR) stepped per step, the epoch passed positionally
    "from transformers import get_cosine_schedule_with_warmup\n" + _MODULE.format(
        sched=_WARMUP, interval="step",
        step="        epoch = self.current_epoch\n        scheduler.step(epoch)  # warning: PF632"),
)

PF632_GOOD = (
    # the fix: the override steps without an argument
    _MODULE.format(sched=_ONECYCLE, interval="step", step="        scheduler.step()"),
    # tricky-correct: a step count is the position a per-step schedule should have
    _MODULE.format(sched=_ONECYCLE, interval="step", step="        scheduler.step(epoch=self.global_step)"),
    # tricky-correct: timm's schedulers take the epoch by design (the reason the override exists)
    "from timm.scheduler import CosineLRScheduler\n" + _MODULE.format(
        sched="        sched = CosineLRScheduler(opt, t_initial=100, warmup_t=5)", interval="epoch",
        step="        scheduler.step(epoch=self.current_epoch)"),
    # tricky-correct: a per-epoch PyTorch schedule given the epoch it is at anyway
    _MODULE.format(sched="        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)",
                   interval="epoch", step="        scheduler.step(epoch=self.current_epoch)"),
)
