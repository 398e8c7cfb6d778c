"""PF441 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # held-out-14 (luxonis-train PR 272): a callback tests the module it is given when training ends
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import Callback, ModelCheckpoint


    class TestOnTrainEnd(Callback):
        def on_train_end(self, trainer, pl_module):
            tester = pl.Trainer(devices=1, logger=False)
            tester.test(pl_module, datamodule=trainer.datamodule)  # warning: PF441


    def main(model, dm):
        checkpoint = ModelCheckpoint(dirpath="checkpoints", monitor="val/loss", mode="min", save_top_k=1)
        trainer = pl.Trainer(max_epochs=100, callbacks=[checkpoint, TestOnTrainEnd()])
        trainer.fit(model, datamodule=dm)
"""),
    # torchgeo PR 963: ModelCheckpoint(monitor=) and EarlyStopping, then test(model=...) on the last weights
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint


    def main(conf, task, datamodule):
        checkpoint_callback = ModelCheckpoint(monitor="val_loss", dirpath=conf["out"], save_top_k=1)
        early_stopping_callback = EarlyStopping(monitor="val_loss", patience=18)
        trainer = pl.Trainer(callbacks=[checkpoint_callback, early_stopping_callback], max_epochs=100)
        trainer.fit(model=task, datamodule=datamodule)
        trainer.test(model=task, datamodule=datamodule)  # warning: PF441
"""),
    # positional model, callbacks inline in the Trainer
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def run(model, dm, args):
        trainer = pl.Trainer(max_epochs=args.epochs,
                             callbacks=[ModelCheckpoint(monitor="val_acc", mode="max")])
        trainer.fit(model, dm)
        results = trainer.test(model, dm)  # warning: PF441
        return results
"""),
    # held-out-23 (anomalib issue 62): a script's top-level code fits, then tests the module it holds
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    checkpoint = ModelCheckpoint(dirpath="weights", monitor="image_AUROC", mode="max", save_top_k=1)
    trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint])
    trainer.fit(model=model, datamodule=datamodule)
    print("Testing the model ...")
    trainer.test(model=model, datamodule=datamodule)  # warning: PF441
"""),
]

GOOD_EXAMPLES = [
    # the fix: the best checkpoint
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint


    def main(conf, task, datamodule):
        checkpoint_callback = ModelCheckpoint(monitor="val_loss", dirpath=conf["out"], save_top_k=1)
        trainer = pl.Trainer(callbacks=[checkpoint_callback, EarlyStopping(monitor="val_loss")])
        trainer.fit(model=task, datamodule=datamodule)
        trainer.test(ckpt_path="best", datamodule=datamodule)
"""),
    # no model given: Lightning loads the best checkpoint itself
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def run(model, dm):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_acc", mode="max")])
        trainer.fit(model, dm)
        trainer.test(datamodule=dm)
"""),
    # the last weights on purpose, said so; and the best path passed positionally
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def run(model, dm):
        ckpt = ModelCheckpoint(monitor="val_acc", mode="max")
        trainer = pl.Trainer(callbacks=[ckpt])
        trainer.fit(model, dm)
        trainer.test(model, dm, ckpt_path="last")
        trainer.test(model, None, ckpt.best_model_path, True, dm)
"""),
    # a checkpoint without a monitor keeps the last epoch: the last weights are the saved ones
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def run(model, dm):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(dirpath="ckpt", every_n_epochs=1)])
        trainer.fit(model, dm)
        trainer.test(model, dm)
"""),
    # test on a fresh model before training (a sanity baseline), then the best after fit
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def run(model, dm):
        trainer = pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_loss")])
        trainer.test(model, dm)
        trainer.fit(model, dm)
        trainer.test(datamodule=dm, ckpt_path="best")
"""),
    # a pytest function exercising the loops (Lightning's tests_pytorch/models/test_restore.py)
    textwrap.dedent("""
    from lightning.pytorch import Trainer
    from lightning.pytorch.callbacks import ModelCheckpoint


    def test_running_test_pretrained_model_cpu(tmp_path):
        checkpoint = ModelCheckpoint(monitor="val_loss", dirpath=tmp_path)
        trainer = Trainer(max_epochs=2, callbacks=[checkpoint])
        model = ClassificationModel()
        trainer.fit(model)
        trainer.test(model)
"""),
    # the fix: the callback loads the best checkpoint
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import Callback, ModelCheckpoint


    class TestOnTrainEnd(Callback):
        def on_train_end(self, trainer, pl_module):
            best = trainer.checkpoint_callback.best_model_path
            tester = pl.Trainer(devices=1, logger=False)
            tester.test(pl_module, datamodule=trainer.datamodule, ckpt_path=best or None)


    def main(model, dm):
        checkpoint = ModelCheckpoint(dirpath="checkpoints", monitor="val/loss", mode="min", save_top_k=1)
        trainer = pl.Trainer(max_epochs=100, callbacks=[checkpoint, TestOnTrainEnd()])
        trainer.fit(model, datamodule=dm)
"""),
    # tricky-correct: the callback tests a separate model it was given (an EMA copy), not pl_module
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import Callback, ModelCheckpoint


    class TestEma(Callback):
        def __init__(self, ema_model):
            self.ema_model = ema_model

        def on_train_end(self, trainer, pl_module):
            pl.Trainer(devices=1).test(self.ema_model, datamodule=trainer.datamodule)


    def main(model, ema, dm):
        checkpoint = ModelCheckpoint(monitor="val/loss", save_top_k=1)
        trainer = pl.Trainer(max_epochs=100, callbacks=[checkpoint, TestEma(ema)])
        trainer.fit(model, datamodule=dm)
"""),
    # tricky-correct: a script's top-level code that tests the best checkpoint; a function below that
    # fits and tests belongs to another scope (it tracks no checkpoint)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    def smoke(model, dm):
        quick = pl.Trainer(fast_dev_run=True)
        quick.fit(model, dm)
        quick.test(model, dm)


    checkpoint = ModelCheckpoint(dirpath="weights", monitor="image_AUROC", mode="max", save_top_k=1)
    trainer = pl.Trainer(max_epochs=50, callbacks=[checkpoint])
    trainer.fit(model=model, datamodule=datamodule)
    trainer.test(model=model, datamodule=datamodule, ckpt_path="best")
"""),
]
