"""PF551 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF551_BAD = [
    # Lightning issue 2149: OneCycleLR's steps_per_epoch from a fresh datamodule loader, 4 GPUs under DDP
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class Recognizer(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.model(batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=3e-3)
            scheduler = torch.optim.lr_scheduler.OneCycleLR(
                optimizer, max_lr=3e-3, epochs=20, steps_per_epoch=len(self.trainer.datamodule.train_dataloader()))  # warning: PF551
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


    def main(datamodule):
        trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=20)
        trainer.fit(Recognizer(), datamodule=datamodule)
"""),
    # the count through a variable, the module's own train_dataloader, a transformers warmup schedule
    textwrap.dedent("""
    # --- train.py
    import lightning as L
    import torch
    from transformers import get_linear_schedule_with_warmup


    class Classifier(L.LightningModule):
        def train_dataloader(self):
            return torch.utils.data.DataLoader(self.train_set, batch_size=32, shuffle=True)

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=2e-5)
            total = len(self.train_dataloader()) * self.hparams.epochs
            scheduler = get_linear_schedule_with_warmup(optimizer, 100, total)  # warning: PF551
            return [optimizer], [{"scheduler": scheduler, "interval": "step"}]


    trainer = L.Trainer(devices=8, num_nodes=2)
    trainer.fit(Classifier())
"""),
]

PF551_GOOD = [
    # the fix: Lightning counts the per-rank steps
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class Recognizer(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.model(batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=3e-3)
            scheduler = torch.optim.lr_scheduler.OneCycleLR(
                optimizer, max_lr=3e-3, total_steps=self.trainer.estimated_stepping_batches)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


    def main(datamodule):
        trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=20)
        trainer.fit(Recognizer(), datamodule=datamodule)
"""),
    # tricky: the same count on one GPU is right
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class Recognizer(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=3e-3)
            scheduler = torch.optim.lr_scheduler.OneCycleLR(
                optimizer, max_lr=3e-3, epochs=20, steps_per_epoch=len(self.trainer.datamodule.train_dataloader()))
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


    def main(datamodule):
        trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=20)
        trainer.fit(Recognizer(), datamodule=datamodule)
"""),
    # tricky: divided by the world size
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class Recognizer(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=3e-3)
            steps = len(self.trainer.datamodule.train_dataloader()) // self.trainer.world_size
            scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3, epochs=20, steps_per_epoch=steps)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


    def main(datamodule):
        trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=20)
        trainer.fit(Recognizer(), datamodule=datamodule)
"""),
]

PF551_GOOD.append(
    # tricky (a real shape): the fresh loader's length is only a fallback for Lightning releases
    # without estimated_stepping_batches
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch
    from torch.optim.lr_scheduler import CosineAnnealingLR


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            total_steps = getattr(self.trainer, "estimated_stepping_batches", None)
            if total_steps is None:
                steps_per_epoch = len(self.trainer.datamodule.train_dataloader())
                total_steps = steps_per_epoch * self.trainer.max_epochs
            sched = CosineAnnealingLR(opt, T_max=total_steps)
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}


    trainer = pl.Trainer(devices=4, strategy="ddp")
    trainer.fit(Model())
"""))
