"""PF120 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the PyG GraphSAGE example shape
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def main(model, datamodule):
        checkpoint = ModelCheckpoint(monitor="val_acc", save_top_k=1)  # warning: PF120
        trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint])
        trainer.fit(model, datamodule)
"""),
    # a keypoint PCK metric on both callbacks
    textwrap.dedent("""
    from lightning.pytorch import Trainer
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint


    def main(model, dm):
        callbacks = [
            ModelCheckpoint(monitor="val_pck_0.15", save_top_k=3),  # warning: PF120
            EarlyStopping("val_pck_0.15", patience=10),  # warning: PF120
        ]
        Trainer(callbacks=callbacks).fit(model, dm)
"""),
]

GOOD_EXAMPLES = [
    # the fix, and a loss with the default
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    def main(model, datamodule):
        checkpoint = ModelCheckpoint(monitor="val_acc", mode="max", save_top_k=1)
        stop = EarlyStopping(monitor="val_loss", patience=3)
        trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint, stop])
        trainer.fit(model, datamodule)
"""),
    # tricky-correct: an error rate, a name from a variable, kwargs, a callback of another library
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint
    from keras.callbacks import ModelCheckpoint as KerasCheckpoint


    def main(model, datamodule, metric, ckpt_kwargs):
        callbacks = [
            ModelCheckpoint(monitor="val_acc_error"),
            ModelCheckpoint(monitor="val/wer"),
            ModelCheckpoint(monitor=metric),
            ModelCheckpoint(monitor="val_f1", **ckpt_kwargs),
        ]
        pl.Trainer(callbacks=callbacks).fit(model, datamodule)
        return KerasCheckpoint("best.h5", monitor="val_accuracy")
"""),
]
