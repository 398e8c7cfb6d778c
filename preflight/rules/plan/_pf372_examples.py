"""PF372 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from model import Classifier

    checkpoint = ModelCheckpoint(monitor="val_acc", mode="max", save_top_k=1)
    trainer = pl.Trainer({devices}, max_epochs=200, callbacks=[checkpoint])
    trainer.fit(Classifier())
    """)

_MODEL = textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch.nn.functional as F
    import torchmetrics


    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(32, 10)
            self.val_metric = torchmetrics.Accuracy(task="multiclass", num_classes=10)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            logits = self.net(x)
            acc = (logits.argmax(-1) == y).float().mean()
            {log}
    """)

PF372_BAD = [
    # Lightning issue 3226 (the held-out case): val_acc of rank 0's shard, checkpoint in train.py, DDP on 4 GPUs
    _TRAIN.format(devices='gpus=4, strategy="ddp"') + _MODEL.format(
        log='self.log("val_acc", acc, on_epoch=True)  # warning: PF372'),
    # the process count from devices alone; sync_dist=False written out
    _TRAIN.format(devices='accelerator="gpu", devices=8') + _MODEL.format(
        log='self.log("val_acc", acc, prog_bar=True, sync_dist=False)  # warning: PF372'),
]

PF372_GOOD = [
    # the fix
    _TRAIN.format(devices='gpus=4, strategy="ddp"') + _MODEL.format(
        log='self.log("val_acc", acc, on_epoch=True, sync_dist=True)'),
    # one process
    _TRAIN.format(devices='accelerator="gpu", devices=1') + _MODEL.format(log='self.log("val_acc", acc)'),
    # tricky-correct: a torchmetrics metric object of the module syncs itself
    _TRAIN.format(devices='gpus=4, strategy="ddp"') + _MODEL.format(
        log='self.val_metric(logits, y)\n        self.log("val_acc", self.val_metric)'),
    # tricky-correct: gathered before the metric is computed, the same number on every rank
    _TRAIN.format(devices='gpus=4, strategy="ddp"') + _MODEL.format(
        log='hits = self.all_gather(logits.argmax(-1) == y)\n        self.log("val_acc", hits.float().mean())'),
    # an unmonitored key logged per rank next to the synced monitored one
    _TRAIN.format(devices='gpus=4, strategy="ddp"') + _MODEL.format(
        log='self.log("val_acc", acc, sync_dist=True)\n        self.log("val_acc_this_rank", acc)'),
    # process count unknown statically
    _TRAIN.format(devices="gpus=args.gpus") + _MODEL.format(log='self.log("val_acc", acc)'),
]
