"""PF225 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF225`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF225_BAD = [
    # Lightning issue 17159: MLflow autologging, `logger=False`, and a LearningRateMonitor in a list built first
    textwrap.dedent("""
    import lightning as L
    import mlflow
    from lightning.pytorch.callbacks import LearningRateMonitor, ModelCheckpoint


    def main(model, dm):
        mlflow.pytorch.autolog()
        callbacks = [ModelCheckpoint(monitor="val_auc", mode="max")]
        callbacks.append(LearningRateMonitor(logging_interval="step"))
        with mlflow.start_run():
            trainer = L.Trainer(
                max_epochs=30,
                logger=False,  # error: PF225
                callbacks=callbacks,
            )
            trainer.fit(model, datamodule=dm)
"""),
    # DeviceStatsMonitor in the literal list of a barebones Trainer
    textwrap.dedent("""
    from pytorch_lightning import Trainer
    from pytorch_lightning.callbacks import DeviceStatsMonitor

    trainer = Trainer(barebones=True, callbacks=[DeviceStatsMonitor()], max_steps=100)  # error: PF225
"""),
]

PF225_GOOD = [
    # the fix: the Trainer logs to MLflow through Lightning's logger
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import LearningRateMonitor
    from lightning.pytorch.loggers import MLFlowLogger


    def main(model, dm, run_id):
        trainer = L.Trainer(
            max_epochs=30,
            logger=MLFlowLogger(experiment_name="churn", run_id=run_id),
            callbacks=[LearningRateMonitor(logging_interval="step")],
        )
        trainer.fit(model, datamodule=dm)
"""),
    # tricky-correct: logger=False with callbacks that need no logger, and a monitor list given to
    # another Trainer that keeps the default logger (`logger=None` means the default one)
    textwrap.dedent("""
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import EarlyStopping, LearningRateMonitor, ModelCheckpoint


    def fit(model, dm, debug):
        quiet = [ModelCheckpoint(monitor="val_loss"), EarlyStopping(monitor="val_loss")]
        pl.Trainer(logger=False, callbacks=quiet, fast_dev_run=debug).fit(model, datamodule=dm)
        monitored = quiet + [LearningRateMonitor()]
        pl.Trainer(logger=None, callbacks=monitored).fit(model, datamodule=dm)
"""),
    # tricky-correct: a logger chosen at run time (preflight cannot say it is off)
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import LearningRateMonitor


    def build(logger):
        return L.Trainer(logger=logger, callbacks=[LearningRateMonitor()])
"""),
]
