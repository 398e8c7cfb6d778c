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

_EPOCH_END = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    from pytorch_lightning.callbacks import EarlyStopping


    class Regressor(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, t = batch
            return {{"y": self(x), "t": t}}

        def validation_epoch_end(self, outputs):
            y = torch.cat([o["y"] for o in outputs])
            t = torch.cat([o["t"] for o in outputs])
    {body}


    if __name__ == "__main__":
        trainer = pl.Trainer(gpus=2, accelerator="ddp", callbacks=[EarlyStopping(monitor="val_rmse")])
        trainer.fit(Regressor())
""")

PF438_BAD.append(
    # lightning issue 5604: the RMSE of this rank's half of the outputs; a `torch.gather` (a tensor
    # op, not a collective) does not sync it
    _EPOCH_END.format(body='        y = y.gather(0, torch.argsort(t))\n'
                           '        rmse = torch.sqrt(F.mse_loss(y, t))\n'
                           '        self.log("val_rmse", rmse)  # warning: PF438'))

PF438_GOOD.extend([
    # lightning 5604's fix: computed from the all_gathered outputs of every rank
    _EPOCH_END.format(body='        y, t = self.all_gather(y).flatten(), self.all_gather(t).flatten()\n'
                           '        rmse = torch.sqrt(F.mse_loss(y, t))\n'
                           '        self.log("val_rmse", rmse)'),
    # tricky: summed in place by a collective, then turned into the metric
    _EPOCH_END.format(body='        sq = ((y - t) ** 2).sum()\n'
                           '        n = torch.tensor(float(len(t)), device=sq.device)\n'
                           '        dist.all_reduce(sq)\n'
                           '        dist.all_reduce(n)\n'
                           '        self.log("val_rmse", torch.sqrt(sq / n))'),
])
