"""PF134 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning-AI/pytorch-lightning#4539's shape: 50 epochs validated every 15, best checkpoint tested
    textwrap.dedent("""
    from lightning.pytorch import Trainer
    from lightning.pytorch.callbacks import ModelCheckpoint

    trainer = Trainer(max_epochs=50, check_val_every_n_epoch=15, accelerator="gpu",  # warning: PF134
                      callbacks=[ModelCheckpoint(monitor="val_acc", mode="max")])
    trainer.fit(model, datamodule=dm)
    trainer.test(model, datamodule=dm, ckpt_path="best")
"""),
    # early stopping, keyword order reversed
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping

    trainer = pl.Trainer(
        check_val_every_n_epoch=4,  # warning: PF134
        max_epochs=30,
        callbacks=[EarlyStopping(monitor="val_loss")],
    )
"""),
]

GOOD_EXAMPLES = [
    # the fix: a multiple of the interval
    textwrap.dedent("""
    from lightning.pytorch import Trainer
    from lightning.pytorch.callbacks import ModelCheckpoint

    trainer = Trainer(max_epochs=50, check_val_every_n_epoch=10, accelerator="gpu",
                      callbacks=[ModelCheckpoint(monitor="val_acc", mode="max")])
    trainer.fit(model, datamodule=dm)
    trainer.test(model, datamodule=dm, ckpt_path="best")
"""),
    # tricky: nothing selects on validation (last checkpoint kept), and command-line values are not read
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    L.Trainer(max_epochs=50, check_val_every_n_epoch=15, callbacks=[ModelCheckpoint(save_last=True)]).fit(model, dm)
    L.Trainer(max_epochs=args.epochs, check_val_every_n_epoch=15).fit(model, dm)
"""),
    # tricky: validated every epoch, or an interval longer than the run (another defect, PF648's)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping

    a = pl.Trainer(max_epochs=33, check_val_every_n_epoch=1, callbacks=[EarlyStopping(monitor="val_loss")])
    b = pl.Trainer(max_epochs=12, check_val_every_n_epoch=12, callbacks=[EarlyStopping(monitor="val_loss")])
"""),
]
