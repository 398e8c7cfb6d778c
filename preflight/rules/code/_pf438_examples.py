"""PF438 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch.nn.functional as F
    from pytorch_lightning.callbacks import ModelCheckpoint


    class Classifier(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self(x), y)
    {log}


    if __name__ == "__main__":
        checkpoint = ModelCheckpoint(monitor="val_loss", mode="min", save_top_k=1)
        trainer = pl.Trainer(accelerator="gpu", {devices}, max_epochs=10, callbacks=[checkpoint])
        trainer.fit(Classifier())
""")

PF438_BAD = [
    # lightning-bolts PR 371
    _TEMPLATE.format(log='        self.log("val_loss", loss)  # warning: PF438', devices='devices=4, strategy="ddp"'),
]

PF438_GOOD = [
    # the fix
    _TEMPLATE.format(log='        self.log("val_loss", loss, sync_dist=True)', devices='devices=4, strategy="ddp"'),
    # one process
    _TEMPLATE.format(log='        self.log("val_loss", loss)', devices="devices=1"),
    # a torchmetrics metric object syncs itself
    _TEMPLATE.format(log='        self.val_loss(loss)\n        self.log("val_loss", self.val_loss)',
                     devices='devices=4, strategy="ddp"'),
    # another metric than the monitored one
    _TEMPLATE.format(log='        self.log("val_loss_rank", loss)', devices='devices=4, strategy="ddp"'),
]
