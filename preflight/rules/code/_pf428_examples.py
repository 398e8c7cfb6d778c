"""PF428 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF428_BAD = [
    # tempest: the loss is logged, never returned
    textwrap.dedent("""
    import lightning as L
    import torch


    class LitClassifier(L.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def training_step(self, batch, batch_idx):  # error: PF428
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.model(x), y)
            self.log("train_loss", loss)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters())
"""),
    # the return is only in a nested helper, not in the step
    textwrap.dedent("""
    import pytorch_lightning as pl


    class Net(pl.LightningModule):
        def training_step(self, batch, batch_idx):  # error: PF428
            def compute(b):
                return self.criterion(self(b[0]), b[1])
            train_loss = compute(batch)
            self.log("loss", train_loss)
"""),
]

PF428_GOOD = [
    # the fixed step; a step that returns None on purpose for some batches
    textwrap.dedent("""
    import lightning as L
    import torch


    class LitClassifier(L.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.model(x), y)
            self.log("train_loss", loss)
            return loss


    class Skipping(L.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = self.compute(batch)
            if not torch.isfinite(loss):
                return None
            return {"loss": loss}
"""),
    # manual optimization: the step does backward and step itself
    textwrap.dedent("""
    import lightning as L


    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.compute(batch)
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
"""),
    # a class-level switch; an abstract base step; no Lightning import
    textwrap.dedent("""
    import lightning as L


    class Manual(L.LightningModule):
        automatic_optimization = False

        def training_step(self, batch, batch_idx):
            loss = self.compute(batch)
            self.manual_backward(loss)


    class Base(L.LightningModule):
        def training_step(self, batch, batch_idx):
            raise NotImplementedError
"""),
    """
class Runner:
    def training_step(self, batch):
        loss = self.model(batch).loss
        loss.backward()
""",
]
