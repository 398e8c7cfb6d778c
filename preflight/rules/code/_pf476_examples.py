"""PF476 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import lightning as L
    import torch
    from lightning.pytorch.callbacks import ModelCheckpoint
    from torchmetrics.functional.classification import binary_auroc


    class Detector(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.scores.append(torch.sigmoid(self(x)))
            self.targets.append(y)

        def on_validation_epoch_end(self):
            auc = binary_auroc(self.all_gather(torch.cat(self.scores)).flatten(),
                               self.all_gather(torch.cat(self.targets)).flatten())
    {log}
            self.scores.clear()
            self.targets.clear()


    def main(net, datamodule):
        checkpoint = ModelCheckpoint(monitor="val_auc", mode="max", save_top_k=2)
        trainer = L.Trainer(accelerator="gpu", {devices}, max_epochs=30, callbacks=[checkpoint])
        trainer.fit(Detector(net), datamodule=datamodule)
""")

BAD_EXAMPLES = [
    # Lightning issue 19072
    _TEMPLATE.format(log='        self.log("val_auc", auc, sync_dist=True, rank_zero_only=True)  # warning: PF476',
                     devices='devices=4, strategy="ddp"'),
    # through log_dict, several nodes
    _TEMPLATE.format(log='        self.log_dict({"val_auc": auc}, rank_zero_only=True)  # warning: PF476',
                     devices="devices=8, num_nodes=2"),
]

GOOD_EXAMPLES = [
    # the fix
    _TEMPLATE.format(log='        self.log("val_auc", auc, sync_dist=True)', devices='devices=4, strategy="ddp"'),
    # one process: rank zero is every rank
    _TEMPLATE.format(log='        self.log("val_auc", auc, rank_zero_only=True)', devices="devices=1"),
    # tricky: a logged-only value under rank_zero_only next to the monitored one logged from every rank
    _TEMPLATE.format(log='        self.log("val_auc", auc, sync_dist=True)\n'
                         '        self.log("val_auc_rank0", auc, rank_zero_only=True)',
                     devices='devices=4, strategy="ddp"'),
    # rank_zero_only=False spelled out
    _TEMPLATE.format(log='        self.log("val_auc", auc, sync_dist=True, rank_zero_only=False)',
                     devices='devices=4, strategy="ddp"'),
]
