"""Examples of PF682 (lightning-batch-end-loss-divided-by-accumulation): Lightning issue 18464's loss logged
from ``on_train_batch_end`` while a GradientAccumulationScheduler raises the window."""

from __future__ import annotations

import textwrap

_W = "  # warning: PF682"

_MODULE = textwrap.dedent("""
    # --- train.py
    import lightning.pytorch as pl
    import torch
    import torch.nn.functional as F
    from lightning.pytorch.callbacks import GradientAccumulationScheduler

    from data import build_loader
    from model import build_net


    class LM(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = build_net()

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def on_train_batch_end(self, outputs, batch, batch_idx):
            self.log("train/loss", {read}){pin}

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=3e-4)


    trainer = pl.Trainer(max_epochs=20, {accum})
    trainer.fit(LM(), build_loader())
    # --- requirements.txt
    lightning{version}
""")

_CALLBACK = textwrap.dedent("""
    # --- train.py
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import Callback

    from task import LitModel, build_loader


    class LossHistory(Callback):
        def __init__(self):
            self.losses = []

        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            self.losses.append({read}.item()){pin}


    trainer = pl.Trainer(max_epochs=3, accumulate_grad_batches={n}, callbacks=[LossHistory()])
    trainer.fit(LitModel(), build_loader())
""")

_SCHED = "callbacks=[GradientAccumulationScheduler(scheduling={0: 1, 1: 100})]"


def _module(read: str = 'outputs["loss"]', pin: str = "", accum: str = _SCHED, version: str = "==2.0.8") -> str:
    return _MODULE.format(read=read, pin=pin, accum=accum, version=version)


BAD_EXAMPLES = [
    # Lightning issue 18464: the window goes from 1 to 100 after epoch 0 on 2.0.8
    _module(pin=_W),
    # a Callback keeps the divided loss with a fixed window of 8 (unpinned)
    _CALLBACK.format(read='outputs["loss"]', pin=_W, n=8),
]

GOOD_EXAMPLES = [
    # the fix: the loss logged in training_step
    _module(read="self.trainer.global_step"),
    # scaled back by the window
    _module(read='outputs["loss"] * self.trainer.accumulate_grad_batches'),
    # no accumulation
    _module(accum="accumulate_grad_batches=1"),
    _CALLBACK.format(read='outputs["loss"]', pin="", n=1),
    # tricky-correct: another key of the outputs (not divided: only the loss is normalised)
    _CALLBACK.format(read='outputs["acc"]', pin="", n=8),
]
