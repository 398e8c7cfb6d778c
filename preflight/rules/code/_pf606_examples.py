"""PF606 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF606`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF606_BAD = [
    # a world-model module clipping (and logging the norm) in training_step
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class WorldModelModule(pl.LightningModule):
        def __init__(self, model, clip=1.0):
            super().__init__()
            self.model = model
            self.clip = clip

        def training_step(self, batch, batch_idx):
            loss = self.model.loss(*batch)
            if self.clip > 0:
                norm = torch.nn.utils.clip_grad_norm_(self.parameters(), self.clip)  # warning: PF606
                self.log("grad_norm", norm)
            return loss

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=3e-4)
"""),
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch.nn.utils import clip_grad_value_


    class Net(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = self.loss_fn(self(x), y)
            clip_grad_value_(self.parameters(), 0.5)  # warning: PF606
            return {"loss": loss}
"""),
]

PF606_GOOD = [
    # the fix: Lightning's hook, after backward
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class WorldModelModule(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.model.loss(*batch)

        def configure_gradient_clipping(self, optimizer, gradient_clip_val=None, gradient_clip_algorithm=None):
            norm = torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)
            self.log("grad_norm", norm)
"""),
    # tricky-correct: manual optimization, the clip between manual_backward and step
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Gan(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.model(batch).mean()
            opt.zero_grad()
            self.manual_backward(loss)
            torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)
            opt.step()
"""),
    # a plain nn.Module's method named training_step (no Lightning)
    textwrap.dedent("""
    import torch


    class Trainer:
        def training_step(self, batch):
            loss = self.model(batch).mean()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
"""),
]
