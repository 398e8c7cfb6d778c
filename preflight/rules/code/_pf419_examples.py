"""PF419 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF419_BAD = [
    # CUNY-CL/yoyodyne issue 243: the file's own inverse-square-root warmup class, sized in steps
    textwrap.dedent("""
    import math

    import lightning.pytorch as pl
    import torch


    class WarmupInverseSquareRootSchedule(torch.optim.lr_scheduler.LambdaLR):
        def __init__(self, optimizer, warmup_steps=4000):
            self.warmup_steps = warmup_steps

            def lr_lambda(step):
                step = max(step, 1)
                if step < warmup_steps:
                    return step / warmup_steps
                return math.sqrt(warmup_steps) / math.sqrt(step)

            super().__init__(optimizer, lr_lambda)


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-3, betas=(0.9, 0.98))
            sched = WarmupInverseSquareRootSchedule(opt, warmup_steps=4000)
            return [opt], [sched]  # warning: PF419
"""),
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-3)
            sched = torch.optim.lr_scheduler.OneCycleLR(
                opt, max_lr=1e-3, total_steps=self.trainer.estimated_stepping_batches)
            return [opt], [sched]  # warning: PF419
"""),
    # "interval" beside "optimizer": Lightning ignores it there
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10000)
            return {"optimizer": opt, "lr_scheduler": sched, "interval": "step"}  # warning: PF419
"""),
    # a LambdaLR whose lambda counts optimizer steps (ACE-Step PR 198), returned as lists
    textwrap.dedent("""
    import torch
    import lightning as L
    from torch.optim.lr_scheduler import LambdaLR


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            warmup_steps, max_steps = self.hparams.warmup_steps, self.hparams.max_steps

            def lr_lambda(current_step):
                if current_step < warmup_steps:
                    return current_step / max(1, warmup_steps)
                return max(0.0, 1.0 - (current_step - warmup_steps) / max(1, max_steps - warmup_steps))

            sched = LambdaLR(opt, lr_lambda)
            return [opt], [sched]  # warning: PF419
"""),
    # the dict(...) call form without an interval
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / self.hparams.warmup_steps))
            return dict(optimizer=opt, lr_scheduler=dict(scheduler=sched, frequency=1))  # warning: PF419
"""),
]

PF419_GOOD = [
    # the fix of yoyodyne issue 243: the same class returned with interval step
    textwrap.dedent("""
    import math

    import lightning.pytorch as pl
    import torch


    class WarmupInverseSquareRootSchedule(torch.optim.lr_scheduler.LambdaLR):
        def __init__(self, optimizer, warmup_steps=4000):
            self.warmup_steps = warmup_steps

            def lr_lambda(step):
                step = max(step, 1)
                if step < warmup_steps:
                    return step / warmup_steps
                return math.sqrt(warmup_steps) / math.sqrt(step)

            super().__init__(optimizer, lr_lambda)


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-3, betas=(0.9, 0.98))
            sched = WarmupInverseSquareRootSchedule(opt, warmup_steps=4000)
            return [opt], [{"scheduler": sched, "interval": "step"}]
"""),
    # tricky-correct: the file's warmup class sized in epochs (self.hparams.warmup_epochs), stepped per epoch
    textwrap.dedent("""
    import math

    import lightning.pytorch as pl
    import torch


    class WarmupInverseSquareRootSchedule(torch.optim.lr_scheduler.LambdaLR):
        def __init__(self, optimizer, warmup_steps=4000):
            self.warmup_steps = warmup_steps

            def lr_lambda(step):
                step = max(step, 1)
                if step < warmup_steps:
                    return step / warmup_steps
                return math.sqrt(warmup_steps) / math.sqrt(step)

            super().__init__(optimizer, lr_lambda)


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.Adam(self.parameters(), lr=1e-3, betas=(0.9, 0.98))
            sched = WarmupInverseSquareRootSchedule(opt, warmup_steps=self.hparams.warmup_epochs)
            return [opt], [sched]
"""),
    # the dict(...) call form with interval="step" (Lightning issue 18570's module)
    textwrap.dedent("""
    import torch
    import lightning as L
    from transformers import get_linear_schedule_with_warmup


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=2e-5)
            sched = get_linear_schedule_with_warmup(opt, num_warmup_steps=100,
                                                    num_training_steps=self.trainer.estimated_stepping_batches)
            return dict(optimizer=opt, lr_scheduler=dict(scheduler=sched, interval="step", frequency=1))
"""),
    # a step-counted LambdaLR with interval "step" in a list of dicts
    textwrap.dedent("""
    import torch
    import lightning as L
    from torch.optim.lr_scheduler import LambdaLR


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)

            def lr_lambda(current_step):
                return min(1.0, current_step / 4000)

            return [opt], [{"scheduler": LambdaLR(opt, lr_lambda), "interval": "step", "frequency": 1}]
"""),
    # tricky: a LambdaLR warmup counted in epochs, stepped per epoch as Lightning does by default
    textwrap.dedent("""
    import torch
    import lightning as L
    from torch.optim.lr_scheduler import LambdaLR


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            warmup_epochs = 5
            sched = LambdaLR(opt, lambda e: min(1.0, (e + 1) / warmup_epochs) * 0.95 ** max(0, e - warmup_epochs))
            return [opt], [sched]
"""),
    # tricky: the classic epoch decay
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            return [opt], [torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)]
"""),
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-3)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=self.trainer.estimated_stepping_batches)
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}
"""),
    # an epoch schedule needs no interval
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            return [opt], [torch.optim.lr_scheduler.StepLR(opt, step_size=30)]
"""),
    # the module steps the schedule itself
    textwrap.dedent("""
    import torch
    import lightning as L
    from transformers import get_linear_schedule_with_warmup


    class Net(L.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.loss(batch)
            self.lr_schedulers().step()
            return loss

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters())
            return [opt], [get_linear_schedule_with_warmup(opt, 100, 10000)]
"""),
]
