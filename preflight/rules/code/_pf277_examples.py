"""PF277 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning issue 5243's shape: skip a NaN loss under DDP on 4 GPUs
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class SegModel(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            images, target = batch
            loss = self.loss_fn(self(images), target)
            if torch.isnan(loss):
                return None  # warning: PF277
            self.log("train_loss", loss)
            return loss


    trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=50)
    trainer.fit(SegModel(), train_loader)
"""),
    # a bare return on an empty batch, a subclass, and devices=-1 (every GPU)
    textwrap.dedent("""
    import lightning as L


    class Base(L.LightningModule):
        pass


    class Detector(Base):
        def training_step(self, batch, batch_idx):
            if batch["boxes"].numel() == 0:
                return  # warning: PF277
            return self.compute_loss(batch)


    L.Trainer(devices=-1).fit(Detector())
"""),
]

GOOD_EXAMPLES = [
    # the fix: a zero loss keeps every rank in the backward
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class SegModel(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.loss_fn(self(batch[0]), batch[1])
            if torch.isnan(loss):
                loss = torch.nan_to_num(loss, nan=0.0) * 0.0
            return loss


    class Agreed(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.loss_fn(self(batch[0]), batch[1])
            if self.trainer.strategy.reduce_boolean_decision(bool(torch.isnan(loss)), all=False):
                return None  # every rank skips together
            return loss


    pl.Trainer(devices=4, strategy="ddp").fit(SegModel())
"""),
    # tricky: skipping on one device is supported; manual optimization owns its step; a helper
    # inside the step returns None
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Single(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.loss_fn(batch)
            if torch.isnan(loss):
                return None
            return loss


    pl.Trainer(accelerator="gpu", devices=1).fit(Single())
"""),
    textwrap.dedent("""
    import lightning as L


    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            if batch is None:
                return None
            opt = self.optimizers()
            opt.zero_grad()
            loss = self.loss(batch)
            self.manual_backward(loss)
            opt.step()
            return loss


    class Seq(L.LightningModule):
        def training_step(self, batch, batch_idx):
            def pick(x):
                if x is None:
                    return None
                return x[0]

            return self.loss(pick(batch))


    L.Trainer(devices=8, strategy="ddp").fit(GAN())
"""),
]
