"""PF585 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF585`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch_tempest issue 13: early stopping, then the in-memory weights saved as the best model
    textwrap.dedent("""\
    import lightning.pytorch as pl
    import torch
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint


    def run(cfg, model, dm):
        ckpt = ModelCheckpoint(dirpath="ckpts", monitor="val_f1", mode="max", save_top_k=1)
        stop = EarlyStopping(monitor="val_f1", mode="max", patience=5)
        trainer = pl.Trainer(callbacks=[ckpt, stop], max_epochs=cfg.epochs)
        trainer.fit(model, dm)
        torch.save(model.backbone.state_dict(), "exported.pth")  # warning: PF585
"""),
    # no early stopping, but the export is named best
    textwrap.dedent("""\
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def main(lit, data):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_loss")], max_epochs=20)
        trainer.fit(lit, datamodule=data)
        lit.model.save_pretrained("outputs/best")  # warning: PF585
"""),
]

GOOD_EXAMPLES = [
    # the fix: the best checkpoint loaded back before the export
    textwrap.dedent("""\
    import lightning.pytorch as pl
    import torch
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint


    def run(cfg, model, dm, LitModel):
        ckpt = ModelCheckpoint(dirpath="ckpts", monitor="val_f1", mode="max", save_top_k=1)
        stop = EarlyStopping(monitor="val_f1", mode="max", patience=5)
        trainer = pl.Trainer(callbacks=[ckpt, stop], max_epochs=cfg.epochs)
        trainer.fit(model, dm)
        model = LitModel.load_from_checkpoint(ckpt.best_model_path)
        torch.save(model.backbone.state_dict(), "exported.pth")
"""),
    # tricky: the last weights exported on purpose beside the kept best checkpoints (no early stop)
    textwrap.dedent("""\
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import ModelCheckpoint


    def main(lit, data):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_loss", save_top_k=3)], max_epochs=20)
        trainer.fit(lit, datamodule=data)
        torch.save(lit.state_dict(), "outputs/last.pth")
"""),
    # tricky: a checkpoint that keeps only the last epoch (no monitor)
    textwrap.dedent("""\
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    def main(lit, data):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(dirpath="c"), EarlyStopping(monitor="val_loss")])
        trainer.fit(lit, datamodule=data)
        torch.save(lit.state_dict(), "outputs/best.pth")
"""),
]
