"""PF209 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_MODULE = dedent("""
    # --- module.py
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def train_dataloader(self):
            return torch.utils.data.DataLoader(self.train_set, batch_size=8, shuffle=True)

        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=3e-5)
            scheduler = torch.optim.lr_scheduler.OneCycleLR(
                optimizer, max_lr=3e-5, epochs=4,
                steps_per_epoch={count}){pin}
            return {{"optimizer": optimizer, "lr_scheduler": {{"scheduler": scheduler, "interval": "{interval}"}}}}
    # --- train.py
    import pytorch_lightning as pl

    from module import Classifier

    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=4, accumulate_grad_batches={accumulation})
    trainer.fit(Classifier())
    """)

PF209_BAD = [
    # Lightning issue 5449: OneCycleLR sized in batches, 8 batches per optimizer step
    _MODULE.format(count="len(self.train_dataloader())", pin="  # warning: PF209", interval="step",
                   accumulation=8),
    # the count through a variable, a transformers warmup schedule, the Trainer options in a
    # Hydra-style config node
    dedent("""
    # --- module.py
    import lightning as L
    import torch
    from transformers import get_linear_schedule_with_warmup


    class Tagger(L.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=2e-5)
            total = len(self.trainer.datamodule.train_dataloader()) * self.trainer.max_epochs
            scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=int(0.1 * total),  # warning: PF209
                                                        num_training_steps=total)
            return [optimizer], [{"scheduler": scheduler, "interval": "step"}]
    # --- trainer.yaml
    trainer:
      _target_: lightning.pytorch.Trainer
      max_epochs: 3
      accumulate_grad_batches: 4
    """),
]

PF209_GOOD = [
    # the fix: Lightning counts the optimizer steps, accumulation included
    _MODULE.format(count="len(self.train_dataloader())", pin="", interval="step", accumulation=8).replace(
        "max_lr=3e-5, epochs=4,\n            steps_per_epoch=len(self.train_dataloader()))",
        "max_lr=3e-5,\n            total_steps=self.trainer.estimated_stepping_batches)"),
    # tricky: the batches divided by the Trainer's accumulation
    _MODULE.format(count="len(self.train_dataloader()) // self.trainer.accumulate_grad_batches", pin="",
                   interval="step", accumulation=8),
    # tricky: no accumulation, one optimizer step per batch
    _MODULE.format(count="len(self.train_dataloader())", pin="", interval="step", accumulation=1),
    # tricky: the accumulation is a hyperparameter of the module, divided out
    _MODULE.format(count="len(self.train_dataloader()) // self.hparams.accumulate", pin="", interval="step",
                   accumulation=8),
]
