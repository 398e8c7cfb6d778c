"""PF435 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Forecaster(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.net(batch).mean()
            self.log("val/loss", loss)
            return loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-3)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    {ret}
""")

PF435_BAD = [
    # spacetimeformer issue 79: a scheduler dict without "monitor"
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler}}'
                       "  # error: PF435"),
    # the list form cannot carry a monitor at all
    _MODULE.format(ret="        return [optimizer], [scheduler]  # error: PF435"),
    # the scheduler itself as "lr_scheduler", no top-level monitor
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": scheduler}  # error: PF435'),
]

PF435_GOOD = [
    # the fix
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, '
                       '"monitor": "val/loss"}}'),
    # a monitor beside "optimizer" counts for the whole dict
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": scheduler, "monitor": "val/loss"}'),
    # a dict built elsewhere (**), preflight cannot see its keys
    _MODULE.format(ret='        return {"optimizer": optimizer, "lr_scheduler": {**self.sched_cfg, '
                       '"scheduler": scheduler}}'),
    # another scheduler needs no monitor
    _MODULE.format(ret='        return [optimizer], [torch.optim.lr_scheduler.StepLR(optimizer, 10)]'),
    # manual optimization: the module steps the scheduler with its own metric
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Manual(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-3)
            return [optimizer], [torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)]
"""),
]
