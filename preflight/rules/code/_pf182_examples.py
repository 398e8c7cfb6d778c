"""PF182 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # a dataset-level metric computed and logged on rank 0 only at validation epoch end
    textwrap.dedent("""
    import lightning.pytorch as pl
    from sklearn.metrics import adjusted_rand_score


    class ReadClusterer(pl.LightningModule):
        def on_validation_epoch_end(self):
            predicted = self.cluster(self.outputs)
            if self.trainer.is_global_zero:
                ari = adjusted_rand_score(self.truth, predicted)
                self.log("validation_ari", ari, on_epoch=True, prog_bar=True)  # warning: PF182


    trainer = pl.Trainer(accelerator="gpu", devices=2, strategy="ddp", max_epochs=30)
"""),
    # a synced metric under a rank test, and a @rank_zero_only hook (Lightning issue 16417)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from pytorch_lightning.utilities import rank_zero_only


    class Separator(pl.LightningModule):
        def validation_epoch_end(self, outputs):
            sdr = self.evaluate(outputs)
            if self.global_rank == 0:
                self.log("val_sdr", sdr, sync_dist=True)  # warning: PF182

        @rank_zero_only
        def on_train_epoch_end(self):
            self.log_dict({"lr": self.lr})  # warning: PF182


    trainer = pl.Trainer(gpus=4)
"""),
]

GOOD_EXAMPLES = [
    # the fix: every rank logs; and the documented rank-0 form with rank_zero_only=True
    textwrap.dedent("""
    import lightning.pytorch as pl


    class ReadClusterer(pl.LightningModule):
        def on_validation_epoch_end(self):
            ari = self.score()
            self.log("validation_ari", ari, rank_zero_only=True)

        def on_train_epoch_end(self):
            if self.trainer.is_global_zero:
                self.log("reduced", self.mean, rank_zero_only=True)
"""),
    # tricky-correct: both branches log, a plain Python logger under the guard, a callback's pl_module.log
    textwrap.dedent("""
    import logging

    import lightning.pytorch as pl

    logger = logging.getLogger(__name__)


    class Model(pl.LightningModule):
        def on_validation_epoch_end(self):
            if self.global_rank == 0:
                self.log("score", self.best)
                logger.info("best %s", self.best)
            else:
                self.log("score", self.best)


    class Printer(pl.Callback):
        def on_validation_epoch_end(self, trainer, pl_module):
            if trainer.is_global_zero:
                print(trainer.callback_metrics)
"""),
]
