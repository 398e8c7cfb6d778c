"""PF252 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # cookiecutter-pyml issue 119's shape: the best-model checkpoint keeps the highest validation loss
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint

    best = ModelCheckpoint(  # warning: PF252
        dirpath="output/best_model",
        monitor="val_loss",
        mode="max",
        save_top_k=1,
    )
    early = EarlyStopping(monitor="val_loss", mode="min", patience=5)
    trainer = pl.Trainer(max_epochs=100, callbacks=[best, early])
    trainer.fit(model, datamodule=data)
    trainer.test(model, datamodule=data, ckpt_path="best")
"""),
    # one mode copied onto every checkpoint of a list, and an explicit min on an accuracy
    textwrap.dedent("""
    from pytorch_lightning import Trainer
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint

    callbacks = [
        ModelCheckpoint(monitor="val_Accuracy", mode="max"),
        ModelCheckpoint(monitor="val_loss", mode="max"),  # warning: PF252
        EarlyStopping("val_acc", mode="min", patience=3),  # warning: PF252
    ]
    Trainer(callbacks=callbacks).fit(model, dm)
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint

    best = ModelCheckpoint(dirpath="output/best_model", monitor="val_loss", mode="min", save_top_k=1)
    early = EarlyStopping(monitor="val_loss", mode="min", patience=5)
    pl.Trainer(callbacks=[best, early]).fit(model, datamodule=data)
"""),
    # tricky: a negated loss (and an ELBO) are maximised on purpose
    textwrap.dedent("""
    from lightning.pytorch.callbacks import ModelCheckpoint

    a = ModelCheckpoint(monitor="val_neg_loss", mode="max")
    b = ModelCheckpoint(monitor="val/elbo", mode="max")
    c = ModelCheckpoint(monitor="val_loss_improvement", mode="max")
"""),
    # tricky: a name with both kinds of words, and a mode from the config
    textwrap.dedent("""
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint

    a = ModelCheckpoint(monitor="val_acc_loss", mode="max")
    b = EarlyStopping(monitor="val_loss", mode=cfg.mode)
    c = ModelCheckpoint(monitor=cfg.monitor, mode="max")
"""),
    # tricky: Keras' ModelCheckpoint is another class (this rule reads Lightning's only)
    textwrap.dedent("""
    from tensorflow import keras

    cb = keras.callbacks.ModelCheckpoint("w.h5", monitor="val_accuracy", mode="max")
"""),
]
