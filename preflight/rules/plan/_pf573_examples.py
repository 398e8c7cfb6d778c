"""PF573 examples (projects: `# --- path` sections): bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF573_BAD = [
    # Lightning-AI/pytorch-lightning#12668 shape: the debugging limit kept for the real run
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from data import DataSet
    from lit_model import LitModel


    def main():
        model = LitModel()
        data = DataSet(batch_size=64)
        checkpoint = ModelCheckpoint(monitor="val_acc", mode="max", filename="best")
        trainer = pl.Trainer(
            max_epochs=50,
            overfit_batches=10,  # warning: PF573
            callbacks=[checkpoint],
        )
        trainer.fit(model, datamodule=data)
        trainer.validate(model, datamodule=data, ckpt_path=checkpoint.best_model_path)
"""),
    # a Hydra trainer config that keeps the switch, with a checkpoint callback config
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="configs", config_name="train", version_base="1.3")
    def main(cfg):
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(hydra.utils.instantiate(cfg.model))
    # --- configs/train.yaml
    trainer:
      _target_: lightning.pytorch.Trainer
      max_epochs: 100
      overfit_batches: 5  # warning: PF573
    callbacks:
      model_checkpoint:
        _target_: lightning.pytorch.callbacks.ModelCheckpoint
        monitor: val/acc
"""),
]

PF573_GOOD = [
    # the fix
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from data import DataSet
    from lit_model import LitModel


    def main():
        model = LitModel()
        data = DataSet(batch_size=64)
        checkpoint = ModelCheckpoint(monitor="val_acc", mode="max", filename="best")
        trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint])
        trainer.fit(model, datamodule=data)
        trainer.validate(model, datamodule=data, ckpt_path=checkpoint.best_model_path)
"""),
    # tricky-correct: a debugging script that keeps nothing; lightning-hydra-template's debug config
    textwrap.dedent("""
    # --- debug_overfit.py
    import lightning as L

    from lit_model import LitModel

    trainer = L.Trainer(overfit_batches=1, max_epochs=100, enable_checkpointing=False, logger=False)
    trainer.fit(LitModel())
    # --- configs/debug/overfit.yaml
    trainer:
      max_epochs: 20
      overfit_batches: 3
    # --- configs/callbacks/default.yaml
    model_checkpoint:
      _target_: lightning.pytorch.callbacks.ModelCheckpoint
      monitor: val/acc
"""),
]
