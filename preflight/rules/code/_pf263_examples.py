"""PF263 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint

    # validate ten times per epoch, stop after 3 epochs without improvement
    early_stop = EarlyStopping(monitor="val_loss", mode="min"{patience}){pin}
    trainer = pl.Trainer(max_epochs=10, accelerator="gpu", devices=1,
                         val_check_interval={interval},
                         callbacks=[early_stop, ModelCheckpoint(monitor="val_loss")])
    trainer.fit(model, datamodule=datamodule)
""")

_COMMENTED = textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping


    def main(model, datamodule):
        {comment}
        early_stopping = EarlyStopping(
            monitor="val_wer",
            mode="min",
            patience={patience},{pin}
        )
        trainer = pl.Trainer(max_epochs=30, callbacks=[early_stopping], val_check_interval=0.25)
        trainer.fit(model, datamodule=datamodule)
""")

_STEPS = textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint

    early_stop_callback = EarlyStopping(
        monitor="validation/auroc",
        min_delta=1e-3,
        patience={patience},{pin}
        mode="max",
    )
    trainer = pl.Trainer(
        callbacks=[ModelCheckpoint(monitor="validation/auroc", mode="max"), early_stop_callback],
        max_epochs=30,
        val_check_interval={interval},
        check_val_every_n_epoch={every},
    )
    trainer.fit(model, train, val)
""")

PF263_BAD = [
    # held-out-40 (Lightning issue 17736): validation every 1000 batches across epochs, patience 4 checks
    _STEPS.format(patience=4, pin="  # warning: PF263", interval=1000, every=None),
    # held-out-23 (Lightning issue 6254): patience=3 meant as three epochs, ten validations per epoch
    _SCRIPT.format(patience=", patience=3", pin="  # warning: PF263", interval="0.1"),
    # the default patience (3) with four validations per epoch
    _SCRIPT.format(patience="", pin="  # warning: PF263", interval="0.25"),
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping


    def main(model, dm):
        callbacks = []
        callbacks.append(EarlyStopping(monitor="val/acc", mode="max", patience=5))  # warning: PF263
        trainer = pl.Trainer(max_epochs=20, val_check_interval=0.05, callbacks=callbacks)
        trainer.fit(model, dm)
"""),
    # a comment counts the patience in epochs (5 epochs meant; four validations per epoch stop after 1.25)
    _COMMENTED.format(comment="# Stop training if WER doesn't improve for 5 epochs", patience=5,
                      pin="  # warning: PF263"),
]

PF263_GOOD = [
    # held-out-40's fix: the patience scaled to the check interval (40 checks of 1000 batches)
    _STEPS.format(patience=40, pin="", interval=1000, every=None),
    # tricky-correct: the same patience, validation tied to epochs (an integer interval inside each epoch)
    _STEPS.format(patience=4, pin="", interval=1000, every=1),
    # tricky-correct: a long interval: 4 checks of 5000 batches cover 20,000 batches
    _STEPS.format(patience=4, pin="", interval=5000, every=None),
    # tricky-correct: a run budgeted in steps (max_steps): the short patience is part of that budget
    _STEPS.format(patience=3, pin="", interval=40, every=None).replace("max_epochs=30,", "max_steps=2000,"),
    # the fix: the patience scaled to the checks (3 epochs at 10 validations per epoch)
    _SCRIPT.format(patience=", patience=30", pin="", interval="0.1"),
    # validation once per epoch: patience counts epochs
    _SCRIPT.format(patience=", patience=3", pin="", interval="1.0"),
    # tricky-correct: an integer val_check_interval is a batch count, not a fraction of the epoch
    _SCRIPT.format(patience=", patience=3", pin="", interval="1000"),
    # tricky-correct: the check runs at the end of each training epoch
    _SCRIPT.format(patience=", patience=3, check_on_train_epoch_end=True", pin="", interval="0.1"),
    # tricky-correct: half-epoch validation with patience 2 covers one epoch
    _SCRIPT.format(patience=", patience=2", pin="", interval="0.5"),
    # tricky-correct: the comment counts checks and gives the epochs they make
    _COMMENTED.format(comment="# 20 checks without improvement = 5 epochs", patience=20, pin=""),
]
