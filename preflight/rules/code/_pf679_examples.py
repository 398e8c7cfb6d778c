"""PF679 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

_STAGES = dedent("""
    import pytorch_lightning as pl

    from data import InDomainDataModule, PretrainDataModule
    from model import LitModel

    model = LitModel()
    trainer = pl.Trainer({budget}, accelerator="gpu", devices=1)

    # stage 1: generic pre-training data
    trainer.fit(model, datamodule=PretrainDataModule(batch_size=64))
    {between}
    # stage 2: continue on the in-domain data
    trainer.fit(model, datamodule=InDomainDataModule(batch_size=64){resume}){pin}
    trainer.save_checkpoint("stage2.ckpt")
""")

_W = "  # warning: PF679"

BAD = [
    # Lightning-AI/pytorch-lightning#11425: the second stage runs no step
    _STAGES.format(budget="max_steps=2000", between="", resume="", pin=_W),
    # a curriculum loop over datamodules with one Trainer built before it
    dedent("""
    import lightning as L

    from data import curriculum
    from model import LitModel


    def main():
        model = LitModel()
        trainer = L.Trainer(max_steps=10_000)
        for datamodule in curriculum():
            trainer.fit(model, datamodule=datamodule)  # warning: PF679
    """),
]

GOOD = [
    # the fix: a new Trainer (and step budget) for stage 2
    _STAGES.format(budget="max_steps=2000", between='trainer = pl.Trainer(max_steps=2000, accelerator="gpu")',
                   resume="", pin=""),
    # the budget raised in between
    _STAGES.format(budget="max_steps=2000", between="trainer.fit_loop.max_steps = 4000", resume="", pin=""),
    # an epoch budget (each fit trains max_epochs again), or the -1 default
    _STAGES.format(budget="max_epochs=3", between="", resume="", pin=""),
    _STAGES.format(budget="max_steps=-1, max_epochs=3", between="", resume="", pin=""),
    # resumed from a checkpoint with its own step count
    _STAGES.format(budget="max_steps=2000", between="", resume=', ckpt_path="last.ckpt"', pin=""),
    # tricky-correct: the Trainer is built inside the loop, once per datamodule
    dedent("""
    import lightning as L

    from data import curriculum
    from model import LitModel


    def main():
        model = LitModel()
        for datamodule in curriculum():
            trainer = L.Trainer(max_steps=10_000)
            trainer.fit(model, datamodule=datamodule)
    """),
]
