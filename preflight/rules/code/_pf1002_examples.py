"""PF1002 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    class Classifier(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self.net(x), y)
    {log}
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)


    def main(net, train_loader):
        callback = {callback}
        trainer = pl.Trainer(max_epochs=20, callbacks=[callback])
        trainer.fit(Classifier(net), train_loader)
""")
_CKPT = 'ModelCheckpoint(monitor="train_loss", mode="min", save_top_k=1)'

PF1002_BAD = [
    # Lightning issue 13147: the checkpoint ranks epochs by their last batch's loss
    _TEMPLATE.format(log='        self.log("train_loss", loss)  # warning: PF1002', callback=_CKPT),
    # early stopping on a step-level value, on_step spelled out
    _TEMPLATE.format(log='        self.log("train_loss", loss, on_step=True, prog_bar=True)  # warning: PF1002',
                     callback='EarlyStopping(monitor="train_loss", patience=3)'),
]

PF1002_GOOD = [
    # the fix: the epoch mean reaches the callback
    _TEMPLATE.format(log='        self.log("train_loss", loss, on_step=False, on_epoch=True)', callback=_CKPT),
    # tricky-correct: logged at both levels
    _TEMPLATE.format(log='        self.log("train_loss", loss, on_step=True, on_epoch=True)', callback=_CKPT),
    # tricky-correct: a checkpoint every 500 steps ranks step values on purpose
    _TEMPLATE.format(log='        self.log("train_loss", loss)',
                     callback='ModelCheckpoint(monitor="train_loss", every_n_train_steps=500, save_top_k=3)'),
    # tricky-correct: the monitored metric is a validation metric; the training loss is only logged
    _TEMPLATE.format(log='        self.log("train_loss", loss)',
                     callback='ModelCheckpoint(monitor="val_loss", mode="min")'),
]
