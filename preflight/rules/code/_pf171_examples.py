"""PF171 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_EVAL = textwrap.dedent("""
    import argparse

    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from project import Classifier, ImageDataModule


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--ckpt-dir", default="checkpoints/")
        args = p.parse_args()
        callback = ModelCheckpoint(dirpath=args.ckpt_dir, monitor="val_acc", mode="max")
        trainer = L.Trainer(devices=1, callbacks=[callback])
        dm = ImageDataModule("data/")
        {body}


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # Lightning issue 17312: an evaluation script that never fits
    _EVAL.format(body='trainer.test(Classifier(), datamodule=dm, ckpt_path="best")  # error: PF171'),
    # validate, at a script's top level
    textwrap.dedent("""
    import pytorch_lightning as pl

    model = Net()
    trainer = pl.Trainer(gpus=1)
    trainer.validate(model, dataloaders=val_loader(), ckpt_path="best")  # error: PF171
    """),
]

GOOD_EXAMPLES = [
    # the fix: the saved checkpoint named explicitly
    _EVAL.format(body='trainer.test(Classifier(), datamodule=dm, ckpt_path=f"{args.ckpt_dir}/best.ckpt")'),
    # fit then test the best checkpoint, in the same function
    _EVAL.format(body='trainer.fit(Classifier(), datamodule=dm)\n'
                      '    trainer.test(datamodule=dm, ckpt_path="best")'),
    # tricky: fit only in one branch
    _EVAL.format(body='if args.train:\n'
                      '        trainer.fit(Classifier(), datamodule=dm)\n'
                      '    trainer.test(datamodule=dm, ckpt_path="best")'),
    # tricky: the trainer is handed to a helper that may fit it
    _EVAL.format(body='run_training(trainer, dm)\n'
                      '    trainer.test(datamodule=dm, ckpt_path="best")'),
    # tricky: the trainer is a parameter (fitted by the caller)
    textwrap.dedent("""
    def evaluate(trainer, model, dm):
        return trainer.test(model, datamodule=dm, ckpt_path="best")
    """),
    # tricky: a module-level trainer fitted in a function of the file
    textwrap.dedent("""
    import lightning as L

    trainer = L.Trainer(max_epochs=5)


    def train(model, dm):
        trainer.fit(model, datamodule=dm)


    if __name__ == "__main__":
        train(Net(), DataModule())
        trainer.test(datamodule=DataModule(), ckpt_path="best")
    """),
]
