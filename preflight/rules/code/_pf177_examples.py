"""PF177 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning issue 7143: the debugging switch left in the real run, then the best checkpoint is tested
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import ModelCheckpoint

    if __name__ == "__main__":
        checkpoint = ModelCheckpoint(monitor="val_loss", mode="min")
        trainer = pl.Trainer(
            max_epochs=100,
            fast_dev_run=True,  # error: PF177
            callbacks=[checkpoint],
        )
        trainer.fit(model, datamodule=data)
        trainer.test(ckpt_path="best", datamodule=data)
"""),
    # a batch count, and the best path exported from the callback
    textwrap.dedent("""
    from pytorch_lightning import Trainer
    from pytorch_lightning.callbacks import ModelCheckpoint


    def train(model, dm):
        ckpt = ModelCheckpoint(monitor="val_acc", mode="max")
        trainer = Trainer(gpus=1, fast_dev_run=5, callbacks=[ckpt])  # error: PF177
        trainer.fit(model, dm)
        return ckpt.best_model_path
"""),
]

GOOD_EXAMPLES = [
    # the fix: no fast_dev_run in the real run
    textwrap.dedent("""
    import lightning.pytorch as pl

    trainer = pl.Trainer(max_epochs=100, callbacks=[checkpoint])
    trainer.fit(model, datamodule=data)
    trainer.test(ckpt_path="best", datamodule=data)
"""),
    # tricky-correct: fast_dev_run from a command-line switch; a debug branch; a smoke test without best reads
    textwrap.dedent("""
    import lightning.pytorch as pl


    def main(args, model, data, checkpoint):
        trainer = pl.Trainer(max_epochs=args.epochs, fast_dev_run=args.fast_dev_run, callbacks=[checkpoint])
        trainer.fit(model, datamodule=data)
        trainer.test(ckpt_path="best", datamodule=data)


    def debug_or_train(debug, model, data, checkpoint):
        if debug:
            trainer = pl.Trainer(fast_dev_run=True)
        else:
            trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint])
        trainer.fit(model, datamodule=data)
        print(checkpoint.best_model_path)


    def smoke(model, data):
        quick = pl.Trainer(fast_dev_run=True)
        quick.fit(model, data)
        quick.test(model, data)
"""),
    # tricky-correct: fast_dev_run=False and another trainer's best checkpoint
    textwrap.dedent("""
    import pytorch_lightning as pl


    def main(model, dm):
        trainer = pl.Trainer(fast_dev_run=False, max_epochs=20)
        trainer.fit(model, dm)
        trainer.test(ckpt_path="best", datamodule=dm)
        smoke = pl.Trainer(fast_dev_run=1)
        smoke.validate(model, dm)
"""),
]
