"""PF241 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF241`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF241_BAD = [
    # Lightning PR 12816's shape: a requeued job resumes from "last", the callback keeps only the top-k
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    checkpoint = ModelCheckpoint(dirpath="runs/ckpt", monitor="val_loss", save_top_k=3)  # warning: PF241
    trainer = L.Trainer(max_epochs=100, callbacks=[checkpoint])
    trainer.fit(model, datamodule=dm, ckpt_path="last")
"""),
    textwrap.dedent("""
    from pytorch_lightning import Trainer
    from pytorch_lightning.callbacks import ModelCheckpoint

    RESUME = "last"
    trainer = Trainer(callbacks=[ModelCheckpoint(monitor="val/acc", mode="max")])  # warning: PF241
    trainer.fit(model, train_loader, val_loader, ckpt_path=RESUME)
"""),
]

PF241_GOOD = [
    # the fix
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    checkpoint = ModelCheckpoint(dirpath="runs/ckpt", monitor="val_loss", save_top_k=3, save_last=True)
    trainer = L.Trainer(max_epochs=100, callbacks=[checkpoint])
    trainer.fit(model, datamodule=dm, ckpt_path="last")
"""),
    # tricky: save_last set afterwards as an attribute
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    checkpoint = ModelCheckpoint(dirpath="runs/ckpt", every_n_train_steps=1000)
    checkpoint.save_last = True
    L.Trainer(callbacks=[checkpoint]).fit(model, ckpt_path="last")
"""),
    # tricky: the callback itself writes its files as last-*.ckpt
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    checkpoint = ModelCheckpoint(dirpath="runs/ckpt", filename="last-{step}", every_n_train_steps=500)
    L.Trainer(callbacks=[checkpoint]).fit(model, ckpt_path="last")
"""),
    # resuming from a path, and testing the best model
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    trainer = L.Trainer(callbacks=[ModelCheckpoint(monitor="val_loss")])
    trainer.fit(model, ckpt_path="runs/ckpt/epoch=3.ckpt")
    trainer.test(model, ckpt_path="best")
"""),
]
