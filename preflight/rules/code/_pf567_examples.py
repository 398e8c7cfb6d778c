"""PF567 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF567`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF567_BAD = [
    # Lightning issue 14156: the epoch as the third positional argument (prog_bar)
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch.nn.functional as F


    class Classifier(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            self.log(
                "val_loss",
                loss,
                self.current_epoch,  # warning: PF567
                on_epoch=True,
                sync_dist=True,
            )
"""),
    # a step passed to log_dict, whose second parameter is prog_bar
    textwrap.dedent("""
    import lightning as L


    class LitModel(L.LightningModule):
        def training_step(self, batch, batch_idx):
            loss, acc = self.shared_step(batch)
            self.log_dict({"train_loss": loss, "train_acc": acc}, batch_idx)  # warning: PF567
            return loss
"""),
]

PF567_GOOD = [
    # the fix: options by keyword
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch.nn.functional as F


    class Classifier(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            self.log("val_loss", loss, on_epoch=True, sync_dist=True)
"""),
    # tricky-correct: prog_bar passed positionally as a literal, and a flag named for it
    textwrap.dedent("""
    from lightning.pytorch import LightningModule


    class LitModel(LightningModule):
        def __init__(self, show_in_bar=True):
            super().__init__()
            self.show_in_bar = show_in_bar

        def training_step(self, batch, batch_idx):
            loss = self.model(batch).loss
            self.log("train_loss", loss, True)
            self.log("lr", self.lr, self.show_in_bar, True)
            return loss
"""),
    # tricky-correct: Fabric's log and a plain class's log do take a step there
    textwrap.dedent("""
    from lightning.fabric import Fabric


    class Recorder:
        def log(self, name, value, step):
            print(name, value, step)

        def record(self, loss, step):
            self.log("loss", loss, step)


    fabric = Fabric(loggers=[logger])
    for step, batch in enumerate(loader):
        loss = train_step(batch)
        fabric.log("loss", loss, step)
"""),
]
