"""PF172 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_MODULE = textwrap.dedent("""
    # --- model.py
    import lightning as L
    import torch
    from torch import nn


    class Regressor(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(16, 1)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = nn.functional.mse_loss(self.net(x), y)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", nn.functional.mse_loss(self.net(x), y))

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
    """)

_TRAIN = textwrap.dedent("""
    # --- train.py
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from model import Regressor

    checkpoint = ModelCheckpoint(monitor="val_loss", save_top_k=1,
                                 every_n_train_steps=1_000)  # warning: PF172
    trainer = L.Trainer(max_epochs=20, callbacks=[checkpoint])
    trainer.fit(Regressor(), train_loader, val_loader)
    """)

# lorenzo-stacchio/Stable-Diffusion-Inpaint issue 8: the module comes from a config target (not in view)
_LDM = textwrap.dedent("""
    # --- main.py
    import lightning.pytorch as pl
    from lightning.pytorch.callbacks import ModelCheckpoint
    from omegaconf import OmegaConf

    from ldm.util import instantiate_from_config


    def main():
        config = OmegaConf.load("configs/inpaint_ldm.yaml")
        model = instantiate_from_config(config.model)
        data = instantiate_from_config(config.data)
        ckpt = ModelCheckpoint(dirpath="logs/checkpoints", monitor="{key}", save_top_k=3,
                               {steps})  {pin}
        trainer = pl.Trainer(max_steps=200_000, callbacks=[ckpt])
        trainer.fit(model, datamodule=data)
    """)

BAD = [
    # the module is not in view; the key is named as a validation metric
    _LDM.format(key="val/loss_simple_ema", steps="every_n_train_steps=5000", pin="# warning: PF172"),
    # the form found in public training scripts: a validation loss ranked at a step interval
    _MODULE + _TRAIN,
    # Lightning issue 20919: the key is logged at validation epoch end, checked every 500 steps
    textwrap.dedent("""
    # --- train.py
    import lightning as L
    import torch
    from lightning.pytorch.callbacks import ModelCheckpoint
    from torchmetrics.classification import BinaryAUROC


    class Detector(L.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.auroc = BinaryAUROC()

        def training_step(self, batch, batch_idx):
            loss = self.net.loss(batch)
            self.log("train/loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.auroc.update(torch.sigmoid(self.net(x)), y)

        def on_validation_epoch_end(self):
            self.log("val/auroc", self.auroc.compute())
            self.auroc.reset()


    def main(net, data):
        ckpt = ModelCheckpoint(monitor="val/auroc", mode="max",
                               every_n_train_steps=500)  # warning: PF172
        trainer = L.Trainer(max_steps=20000, val_check_interval=500, callbacks=[ckpt])
        trainer.fit(Detector(net), datamodule=data)
    """),
]

GOOD = [
    # the fix of Stable-Diffusion-Inpaint issue 8: ranked on validation end
    _LDM.format(key="val/loss_simple_ema", steps="every_n_epochs=1", pin=""),
    # module not in view, a key not named as a validation metric: silent
    _LDM.format(key="train/loss", steps="every_n_train_steps=5000", pin=""),
    # tricky: a step-interval snapshot ranked by the step counter (latent-diffusion's main.py)
    _LDM.format(key="step", steps="every_n_train_steps=5000", pin=""),
    # tricky: "valence_loss" starts with "val" but is not a validation metric
    _LDM.format(key="valence_loss", steps="every_n_train_steps=5000", pin=""),
    # no step interval: the callback ranks after each validation
    _MODULE + _TRAIN.replace(",\n                             every_n_train_steps=1_000)  # warning: PF172", ")"),
    # a training metric at a step interval is fresh at every save
    _MODULE + _TRAIN.replace('monitor="val_loss"', 'monitor="train_loss"').replace("  # warning: PF172", ""),
    # tricky: a step-interval snapshot ranked by the step counter, and the validation-ranked best apart
    _MODULE + textwrap.dedent("""
    # --- train.py
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from model import Regressor

    snapshots = ModelCheckpoint(monitor="step", mode="max", save_top_k=3, every_n_train_steps=1000)
    best = ModelCheckpoint(monitor="val_loss", save_top_k=1)
    trainer = L.Trainer(max_epochs=20, callbacks=[snapshots, best])
    trainer.fit(Regressor(), train_loader, val_loader)
    """),
    # tricky: the key comes from a helper shared by the training and validation steps
    _MODULE.replace('self.log("val_loss", nn.functional.mse_loss(self.net(x), y))',
                    'self._report("val", nn.functional.mse_loss(self.net(x), y))').replace(
        "    def configure_optimizers(self):",
        "    def _report(self, stage, loss):\n        self.log(f\"{stage}_loss\", loss)\n\n"
        "    def configure_optimizers(self):") + _TRAIN.replace("  # warning: PF172", ""),
    # an interval read from the config may be 0 (off): not a literal, silent
    _MODULE + _TRAIN.replace("every_n_train_steps=1_000)  # warning: PF172", "every_n_train_steps=cfg.every)"),
]
