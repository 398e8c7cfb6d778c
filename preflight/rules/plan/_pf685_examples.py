"""PF685 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

# EquiCSP issue 1's shape: the training metrics come from a helper with an f-string key, validation logs
# val_total_loss, the plateau scheduler monitors val_loss
_CSP = textwrap.dedent("""
    # --- train_csp.py
    import pytorch_lightning as pl
    import torch


    class CSPModule(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(8, 2)

        def compute_stats(self, out, prefix):
            loss = out.sum()
            return {{f"{{prefix}}_loss": loss, "lattice_loss": loss}}, loss

        def training_step(self, batch, batch_idx):
            log_dict, loss = self.compute_stats(self.net(batch), prefix="train")
            self.log_dict(log_dict, on_step=True, on_epoch=True)
            return loss

        def validation_step(self, batch, batch_idx):
            {validation}

        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-3)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.6, patience=30)
            return {{"optimizer": opt,
                    "lr_scheduler": {{"scheduler": scheduler, {monitor}}}}}{mark}


    if __name__ == "__main__":
        pl.Trainer(max_epochs=10).fit(CSPModule())
    """)

_VAL_TOTAL = 'self.log_dict({"val_total_loss": self.net(batch).sum()}, on_epoch=True)'

BAD_EXAMPLES = [
    _CSP.format(validation=_VAL_TOTAL, monitor='"monitor": "val_loss"', mark="  # error: PF685"),
    # a plain self.log under another name; the monitor at the top of the returned dict
    textwrap.dedent("""
    # --- model.py
    import lightning.pytorch as pl
    import torch


    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(8, 2)

        def training_step(self, batch, batch_idx):
            loss = self.net(batch).sum()
            self.log("train/loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            self.log("val/loss", self.net(batch).sum())

        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
            return {"optimizer": opt, "lr_scheduler": sched, "monitor": "val_loss"}  # error: PF685


    if __name__ == "__main__":
        pl.Trainer().fit(Classifier())
    """),
]

GOOD_EXAMPLES = [
    # the fix: monitor the logged validation key
    _CSP.format(validation=_VAL_TOTAL, monitor='"monitor": "val_total_loss"', mark=""),
    # tricky: the helper also logs validation metrics, with prefix="val" -> val_loss
    _CSP.format(validation='stats, _ = self.compute_stats(self.net(batch), prefix="val")\n'
                           "        self.log_dict(stats, on_epoch=True)", monitor='"monitor": "val_loss"', mark=""),
    # tricky: the prefix is not a literal at the call site: it may be "val"
    _CSP.format(validation="stats, _ = self.compute_stats(self.net(batch), prefix=self.split)\n"
                           "        self.log_dict(stats, on_epoch=True)", monitor='"monitor": "val_loss"', mark=""),
    # tricky: strict off, Lightning warns and skips the step
    _CSP.format(validation=_VAL_TOTAL, monitor='"monitor": "val_loss", "strict": False', mark=""),
    # tricky: train_loss is logged by the helper (on_epoch adds train_loss_epoch)
    _CSP.format(validation=_VAL_TOTAL, monitor='"monitor": "train_loss_epoch"', mark=""),
]
