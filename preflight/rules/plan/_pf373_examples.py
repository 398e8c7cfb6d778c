"""PF373 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl

    from synthesizer import Synthesizer

    trainer = pl.Trainer(gpus=-1, {launcher}, max_epochs=10000)
    trainer.fit(Synthesizer())
    """)

_MODEL = textwrap.dedent("""
    # --- synthesizer.py
    import pytorch_lightning as pl
    import torch
    from torch.utils.data import DataLoader

    from datasets import TextMelDataset


    class Synthesizer(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            text, mel = batch
            return torch.nn.functional.mse_loss(self.decoder(text), mel)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)

        def train_dataloader(self):
            {loader}
    """)

_REQ = "# --- requirements.txt\npytorch-lightning=={version}\n"

PF373_BAD = [
    # assem-vc issue 13 (the held-out case): accelerator="ddp_spawn" on pytorch-lightning 1.3, 16 workers
    _TRAIN.format(launcher='accelerator="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, shuffle=True, '
               'num_workers=16)  # warning: PF373'),
    # the 1.5+ spelling on a pinned 1.x; persistent_workers=False written out
    _TRAIN.format(launcher='strategy="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, num_workers=4, '
               'persistent_workers=False)  # warning: PF373') + _REQ.format(version="1.6.5"),
]

PF373_GOOD = [
    # the fix: ddp launches the processes as scripts
    _TRAIN.format(launcher='accelerator="ddp"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, shuffle=True, num_workers=16)'),
    # tricky-correct: ddp_spawn with persistent workers (what Lightning's 1.5+ warning asks for)
    _TRAIN.format(launcher='strategy="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, num_workers=4, persistent_workers=True)'
    ) + _REQ.format(version="1.6.5"),
    # tricky-correct: Lightning 2.x no longer warns about ddp_spawn with loader workers
    _TRAIN.format(launcher='strategy="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, num_workers=4)') + _REQ.format(
        version="2.2.1"),
    # ddp_spawn without loader workers
    _TRAIN.format(launcher='strategy="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, num_workers=0)'),
    # the worker count is not known statically
    _TRAIN.format(launcher='strategy="ddp_spawn"') + _MODEL.format(
        loader='return DataLoader(TextMelDataset("train"), batch_size=32, num_workers=self.hparams.workers)'),
]
