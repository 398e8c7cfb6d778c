"""PF477 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    class Regressor(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.net(batch).sum()
            self.log("train_loss", loss, on_step=True, on_epoch=False)
            return loss

        def validation_step(self, batch, batch_idx):
            loss = self.net(batch).sum()
    {log}


    def main(net, train_loader, val_loader):
        checkpoint = {callback}
        trainer = pl.Trainer(max_epochs=50, val_check_interval=0.25, callbacks=[checkpoint])
        trainer.fit(Regressor(net), train_loader, val_loader)
""")
_CKPT = 'ModelCheckpoint(dirpath="checkpoints", monitor="valid/valid_loss", mode="min", save_top_k=3)'

BAD_EXAMPLES = [
    # Lightning issue 10718
    _TEMPLATE.format(log='        self.log("valid/valid_loss", loss, on_step=True, on_epoch=False)  # error: PF477',
                     callback=_CKPT),
    # early stopping on a step-level dict entry (patience 12 checks: 3 epochs at four validations per epoch, PF263)
    _TEMPLATE.format(log='        self.log_dict({"valid/valid_loss": loss}, on_epoch=False)  # error: PF477',
                     callback='EarlyStopping(monitor="valid/valid_loss", patience=12)'),
]

GOOD_EXAMPLES = [
    # the fix: the epoch-level default of the validation step
    _TEMPLATE.format(log='        self.log("valid/valid_loss", loss)', callback=_CKPT),
    # tricky: the step-level value for the logger next to the epoch mean the callback reads
    _TEMPLATE.format(log='        self.log("valid/valid_loss_step", loss, on_step=True, on_epoch=False)\n'
                         '        self.log("valid/valid_loss", loss, on_epoch=True)', callback=_CKPT),
    # tricky: step values in the step, the epoch mean logged under the same name at the epoch end
    _TEMPLATE.format(log='        self.log("valid/valid_loss", loss, on_step=True, on_epoch=False)\n'
                         '        self.losses.append(loss)\n\n'
                         '    def on_validation_epoch_end(self):\n'
                         '        self.log("valid/valid_loss", torch.stack(self.losses).mean())\n'
                         '        self.losses.clear()', callback=_CKPT),
    # a monitored training metric logged per step reaches the callbacks
    _TEMPLATE.format(log='        self.log("valid/valid_loss", loss)',
                     callback='ModelCheckpoint(monitor="train_loss", every_n_train_steps=100)'),
]
