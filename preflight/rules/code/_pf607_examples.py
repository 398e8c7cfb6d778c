"""PF607 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF607`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF607_BAD = [
    # so-vits-svc-fork PR 291: a GAN under manual optimization, two ExponentialLR schedulers
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Vits(pl.LightningModule):
        def __init__(self, hps):
            super().__init__()
            self.automatic_optimization = False
            self.hps = hps

        def configure_optimizers(self):
            optim_g = torch.optim.AdamW(self.net_g.parameters(), self.hps.lr)
            optim_d = torch.optim.AdamW(self.net_d.parameters(), self.hps.lr)
            scheduler_g = torch.optim.lr_scheduler.ExponentialLR(optim_g, gamma=0.999)
            scheduler_d = torch.optim.lr_scheduler.ExponentialLR(optim_d, gamma=0.999)
            return [optim_g, optim_d], [scheduler_g, scheduler_d]  # warning: PF607

        def training_step(self, batch, batch_idx):
            optim_g, optim_d = self.optimizers()
            loss_d = self.net_d(batch).mean()
            optim_d.zero_grad()
            self.manual_backward(loss_d)
            optim_d.step()
"""),
    # the dict form, manual optimization as a class attribute
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Model(pl.LightningModule):
        automatic_optimization = False

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            return {"optimizer": opt,  # warning: PF607
                    "lr_scheduler": torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)}

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(self.model(batch).loss)
            opt.step()
"""),
]

PF607_GOOD = [
    # the fix: step them in on_train_epoch_end
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Vits(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def configure_optimizers(self):
            optim_g = torch.optim.AdamW(self.net_g.parameters(), 1e-4)
            scheduler_g = torch.optim.lr_scheduler.ExponentialLR(optim_g, gamma=0.999)
            return [optim_g], [scheduler_g]

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(self.net_g(batch).mean())
            opt.step()

        def on_train_epoch_end(self):
            self.lr_schedulers().step()
"""),
    # automatic optimization: Lightning steps the scheduler
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            return [opt], [torch.optim.lr_scheduler.StepLR(opt, 10)]

        def training_step(self, batch, batch_idx):
            return self.model(batch).loss
"""),
    # tricky-correct: a scheduler kept on self and stepped by hand in training_step
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Model(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            self.warmup_scheduler = torch.optim.lr_scheduler.LinearLR(opt, 0.1, total_iters=500)
            return opt

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(self.model(batch).loss)
            opt.step()
            self.warmup_scheduler.step()
"""),
    # manual optimization returning optimizers only
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Model(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def configure_optimizers(self):
            return [torch.optim.Adam(self.g.parameters()), torch.optim.Adam(self.d.parameters())]

        def training_step(self, batch, batch_idx):
            g_opt, d_opt = self.optimizers()
            d_opt.zero_grad()
            self.manual_backward(self.d(batch).mean())
            d_opt.step()
"""),
]
