"""PF450 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF450_BAD = [
    # Lightning issue 4454: the scheduler under 'scheduler' beside 'optimizer'
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Leaf(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
            return {
                "optimizer": optimizer,
                "scheduler": scheduler,  # warning: PF450
                "monitor": "val_loss",
            }
"""),
    # the plural, in a list of dicts (one per optimizer)
    textwrap.dedent("""
    import lightning as L
    import torch


    class GAN(L.LightningModule):
        def configure_optimizers(self):
            g = torch.optim.Adam(self.gen.parameters())
            d = torch.optim.Adam(self.disc.parameters())
            return [{"optimizer": g, "lr_schedulers": torch.optim.lr_scheduler.StepLR(g, 10)},  # warning: PF450
                    {"optimizer": d}]
"""),
    # Lightning issue 4929: 'interval' at the top level, beside 'lr_scheduler', is ignored
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch import optim


    class Segmenter(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = optim.SGD(self.parameters(), lr=1e-2)
            max_steps = self.trainer.estimated_stepping_batches
            scheduler = optim.lr_scheduler.LambdaLR(optimizer, lambda step: (1 - step / max_steps) ** 0.9)
            return {
                "optimizer": optimizer,
                "lr_scheduler": scheduler,
                "interval": "step",  # warning: PF450
            }
"""),
    # Lightning issue 9475: 'interval' spelled 'steps' (Lightning knows 'step' and 'epoch')
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.SGD(self.parameters(), lr=0.1)
            scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1000, gamma=0.1)
            return [optimizer], [{"scheduler": scheduler, "interval": "steps"}]  # warning: PF450
"""),
    # the same typo in the nested dict of the documented form, with a monitor
    textwrap.dedent("""
    import lightning as L
    from torch import optim


    class Regressor(L.LightningModule):
        def configure_optimizers(self):
            opt = optim.Adam(self.parameters(), lr=1e-3)
            sched = optim.lr_scheduler.ReduceLROnPlateau(opt)
            return {"optimizer": opt,
                    "lr_scheduler": {"scheduler": sched, "interval": "epochs", "monitor": "val_loss"}}  # warning: PF450
"""),
]

PF450_GOOD = [
    # the fix: 'lr_scheduler' at the top, 'scheduler' inside its dict
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Leaf(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
            scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}
"""),
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Leaf(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
            return {"optimizer": optimizer, "lr_scheduler": torch.optim.lr_scheduler.StepLR(optimizer, 5),
                    "monitor": "val_loss"}
"""),
    # the issue 4929 fix: 'interval' inside the scheduler's dict
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch import optim


    class Segmenter(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = optim.SGD(self.parameters(), lr=1e-2)
            scheduler = optim.lr_scheduler.LambdaLR(optimizer, lambda step: 0.99 ** step)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}
"""),
    # a dict with 'scheduler' outside configure_optimizers (a project's own config) is not Lightning's
    textwrap.dedent("""
    import torch


    def build(cfg, model):
        optimizer = torch.optim.Adam(model.parameters())
        return {"optimizer": optimizer, "scheduler": torch.optim.lr_scheduler.StepLR(optimizer, 5)}
"""),
    # the 9475 fix, and both accepted values side by side
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.SGD(self.parameters(), lr=0.1)
            warm = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=500)
            decay = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
            return [optimizer], [{"scheduler": warm, "interval": "step"}, {"scheduler": decay, "interval": "epoch"}]
"""),
    # asteroid's System takes its own {"interval": "batch"} dict and translates it: outside
    # configure_optimizers the value is not Lightning's
    """
from asteroid.engine.system import System


def make_system(model, optimizer, loaders, sched, conf):
    scheduler = {"scheduler": sched, "interval": "batch"}
    return System(model=model, optimizer=optimizer, loss_func=None, train_loader=loaders[0],
                  val_loader=loaders[1], scheduler=scheduler, config=conf)
""",
    # an interval read from the config: not a literal, not judged
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Tuned(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
            sched = torch.optim.lr_scheduler.StepLR(opt, step_size=self.hparams.step)
            return [opt], [{"scheduler": sched, "interval": self.hparams.interval}]
"""),
    # tricky-correct (Lightning examples/fabric/build_your_own_trainer/run.py at 7f0c343): the module is fit by
    # the example's own Fabric trainer, which reads the dict's "scheduler" key itself
    textwrap.dedent("""
    import lightning as L
    import torch
    from trainer import MyCustomTrainer


    class MNISTModule(L.LightningModule):
        def configure_optimizers(self):
            optim = torch.optim.Adam(self.parameters(), lr=1e-4)
            return {
                "optimizer": optim,
                "scheduler": torch.optim.lr_scheduler.ReduceLROnPlateau(optim, mode="max"),
                "monitor": "val_accuracy",
                "interval": "epoch",
                "frequency": 1,
            }


    def train(model, train_loader, val_loader):
        trainer = MyCustomTrainer(accelerator="auto", devices="auto", max_epochs=3)
        trainer.fit(model, train_loader, val_loader)
"""),
]
