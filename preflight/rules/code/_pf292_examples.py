"""PF292 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning-AI/pytorch-lightning#9435's shape: meant once per epoch, validates after every batch
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from seg import CityscapesDataModule, LitSegFormer

    trainer = pl.Trainer(
        accelerator="gpu",
        devices=1,
        max_epochs=100,
        val_check_interval=1,  # warning: PF292
        callbacks=[ModelCheckpoint(monitor="val_miou", mode="max")],
    )
    trainer.fit(LitSegFormer(num_classes=19), datamodule=CityscapesDataModule("data"))
"""),
    # the bare Trainer name and the argparse constructor
    textwrap.dedent("""
    from argparse import ArgumentParser

    from lightning.pytorch import Trainer

    def main(args, model, dm):
        trainer = Trainer.from_argparse_args(args, val_check_interval=1)  # warning: PF292
        trainer.fit(model, dm)
        Trainer(max_epochs=args.epochs, val_check_interval=1).fit(model, dm)  # warning: PF292
"""),
]

GOOD_EXAMPLES = [
    # the fix: a float is a fraction of the epoch
    textwrap.dedent("""
    import pytorch_lightning as pl

    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=100, val_check_interval=1.0)
    trainer.fit(model, datamodule=dm)
"""),
    # tricky: other ints are deliberate step counts, and a value from the command line is not read
    textwrap.dedent("""
    import lightning as L

    L.Trainer(max_steps=100_000, val_check_interval=2000).fit(model, dm)
    L.Trainer(val_check_interval=args.val_check_interval).fit(model, dm)
    L.Trainer(val_check_interval=0.25).fit(model, dm)
"""),
    # tricky: a debug or smoke run validates after each of a few batches on purpose
    textwrap.dedent("""
    import pytorch_lightning as pl

    debug = pl.Trainer(overfit_batches=2, val_check_interval=1, max_epochs=200)
    smoke = pl.Trainer(limit_train_batches=4, limit_val_batches=1, val_check_interval=1)
"""),
    # tricky: a pytest fixture that exercises the validation loop
    textwrap.dedent("""
    import lightning as L
    import pytest

    @pytest.fixture
    def trainer():
        return L.Trainer(max_epochs=1, devices=1, val_check_interval=1)
"""),
]
