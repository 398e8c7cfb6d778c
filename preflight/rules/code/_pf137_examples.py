"""PF137 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # microsoft/hi-ml#634's shape: bags of tiles in a dict batch, the size given in training only
    textwrap.dedent("""
    import torch.nn.functional as F
    from lightning.pytorch import LightningModule


    class DeepMILModule(LightningModule):
        def _shared_step(self, batch):
            logits = self(batch["tiles"], batch["bag_index"], batch["label"].shape[0])
            return logits, F.binary_cross_entropy_with_logits(logits, batch["label"].float())

        def training_step(self, batch, batch_idx):
            logits, loss = self._shared_step(batch)
            self.log("train/loss", loss, on_step=False, on_epoch=True, batch_size=batch["label"].shape[0])
            return loss

        def validation_step(self, batch, batch_idx):
            logits, loss = self._shared_step(batch)
            self.log("val/loss", loss, on_step=False, on_epoch=True, sync_dist=True)  # warning: PF137
            self.val_auroc.update(logits.sigmoid(), batch["label"])
            self.log("val/auroc", self.val_auroc, on_epoch=True)
"""),
    # the size given in validation, an on_epoch training log without it
    textwrap.dedent("""
    import pytorch_lightning as pl


    class Packed(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.model(**batch).loss
            self.log("train_loss", loss, on_epoch=True)  # warning: PF137
            return loss

        def validation_step(self, batch, batch_idx):
            loss = self.model(**batch).loss
            self.log("val_loss", loss, batch_size=len(batch["sample_ids"]))
"""),
]

GOOD_EXAMPLES = [
    # the fix: the size everywhere
    textwrap.dedent("""
    import torch.nn.functional as F
    from lightning.pytorch import LightningModule


    class DeepMILModule(LightningModule):
        def _shared_step(self, batch):
            logits = self(batch["tiles"], batch["bag_index"], batch["label"].shape[0])
            return logits, F.binary_cross_entropy_with_logits(logits, batch["label"].float())

        def training_step(self, batch, batch_idx):
            logits, loss = self._shared_step(batch)
            self.log("train/loss", loss, on_step=False, on_epoch=True, batch_size=batch["label"].shape[0])
            return loss

        def validation_step(self, batch, batch_idx):
            logits, loss = self._shared_step(batch)
            self.log("val/loss", loss, on_epoch=True, sync_dist=True, batch_size=batch["label"].shape[0])
            self.val_auroc.update(logits.sigmoid(), batch["label"])
            self.log("val/auroc", self.val_auroc, on_epoch=True)
"""),
    # tricky: per-step training logs need no size, a configured size says nothing about the batch,
    # and a module that never sizes its batch is left to Lightning's inference
    textwrap.dedent("""
    import lightning as L


    class A(L.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.model(**batch).loss
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            self.log("val_loss", self.model(**batch).loss, batch_size=len(batch["ids"]))


    class B(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log("val_loss", self.model(**batch).loss, batch_size=self.hparams.batch_size)
            self.log("val_acc", self.accuracy(batch), on_epoch=True)


    class C(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", self.loss(self(x), y))
"""),
    # tricky: a shared helper sizes the loss and leaves the torchmetrics dict to inference (heldout7's MEDS module)
    textwrap.dedent("""
    import lightning as L


    class Module(L.LightningModule):
        def _log_metrics(self, loss, outputs, batch, stage):
            is_train = stage == "train"
            self.log(f"{stage}/loss", loss, on_step=is_train, on_epoch=not is_train, batch_size=batch["code"].shape[0])
            metrics = self.metrics(outputs.logits, batch["code"])
            self.log_dict({f"{stage}/{k}": v for k, v in metrics.items()}, on_epoch=not is_train)

        def training_step(self, batch, batch_idx):
            loss, outputs = self.model(batch)
            self._log_metrics(loss, outputs, batch, "train")
            return loss

        def validation_step(self, batch, batch_idx):
            loss, outputs = self.model(batch)
            self._log_metrics(loss, outputs, batch, "tuning")
"""),
]
