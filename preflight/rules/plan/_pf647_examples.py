"""PF647 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class Classifier(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self.net(x), y)
            self.log("train/loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val/acc", (self.net(x).argmax(-1) == y).float().mean(), on_step=True, on_epoch=True)

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=5e-5)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="{mode}", patience=2)
            {config}
            return {{"optimizer": optimizer, "lr_scheduler": config}}


    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=30, {every})
    trainer.fit(Classifier(build_net()), train_loader, val_loader)
""")


def _project(config: str, every: str = "check_val_every_n_epoch=2", mode: str = "max") -> str:
    return _MODULE.format(config=config, every=every, mode=mode)


BAD_EXAMPLES = [
    # Lightning issue 10496: the default frequency (1) steps it after epoch 0, which does not validate
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch"}  # error: PF647'),
    # an explicit epoch interval with a frequency that is not a multiple of the validation period
    _project('config = {"scheduler": scheduler, "monitor": "val/acc", "interval": "epoch", '
             '"frequency": 2}  # error: PF647', "check_val_every_n_epoch=3"),
]

GOOD_EXAMPLES = [
    # the fix of issue 10496: stepped on the validation epochs only
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch", "interval": "epoch", "frequency": 2}'),
    # validation every epoch (the default)
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch"}', "enable_progress_bar=True"),
    # tricky: strict=False skips the steps without the metric (Lightning warns and goes on)
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch", "strict": False}'),
    # tricky: the monitored metric is a training one, there after every epoch (a loss: mode "min", else PF325)
    _project('config = {"scheduler": scheduler, "monitor": "train/loss"}', mode="min"),
    # tricky: a pinned release before 1.4 steps epoch schedulers from the validation loop (PF307's defect, not this)
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch"}') + "# --- requirements.txt\npytorch-lightning==1.3.1\n",
    # tricky: a frequency of 4 with validation every 2 epochs: every step falls on a validation epoch
    _project('config = {"scheduler": scheduler, "monitor": "val/acc_epoch", "frequency": 4}'),
]
