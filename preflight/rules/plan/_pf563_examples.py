"""PF563 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import ModelCheckpoint

    from model import CTRModel

    checkpoint = ModelCheckpoint(monitor="val_auc", mode="max", save_top_k=2)
    trainer = pl.Trainer(accelerator="gpu", devices={devices}, strategy="ddp", callbacks=[checkpoint])
    trainer.fit(CTRModel())
    """)

_MODEL = textwrap.dedent("""
    # --- model.py
    import lightning.pytorch as pl
    import torch
    from sklearn.metrics import roc_auc_score


    class CTRModel(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.outputs = []

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.outputs.append((torch.sigmoid(self.net(x)), y))

        def on_validation_epoch_end(self):
            preds = self.all_gather(torch.cat([p for p, _ in self.outputs])).flatten()
            targets = self.all_gather(torch.cat([t for _, t in self.outputs])).flatten()
            auc = roc_auc_score(targets.cpu().numpy(), preds.cpu().numpy())
            {log}
            self.outputs.clear()
    """)

PF563_BAD = [
    # the held-out case: AUC on rank 0 after all_gather, ModelCheckpoint in train.py under DDP on 4 GPUs
    _TRAIN.format(devices=4) + _MODEL.format(
        log='if self.global_rank == 0:\n            self.log("val_auc", auc, rank_zero_only=True)  # error: PF563'),
    # the trainer's flag, and a log_dict entry
    _TRAIN.format(devices=2) + _MODEL.format(
        log='if self.trainer.is_global_zero:\n            self.log_dict({"val_auc": auc})  # error: PF563'),
]

PF563_GOOD = [
    # the fix: every rank logs the (gathered, identical) value
    _TRAIN.format(devices=4) + _MODEL.format(log='self.log("val_auc", auc, sync_dist=True)'),
    # one process: rank 0 is every rank
    _TRAIN.format(devices=1).replace(', strategy="ddp"', "") + _MODEL.format(
        log='if self.global_rank == 0:\n            self.log("val_auc", auc)'),
    # tricky-correct: rank 0 only prints; the monitored value is logged on every rank
    _TRAIN.format(devices=4) + _MODEL.format(
        log='self.log("val_auc", auc, sync_dist=True)\n        if self.global_rank == 0:\n'
            '            print(f"auc {auc:.4f}")\n            self.log("auc_printed", auc)'),
]
