"""PF176 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning issue 7405: a shared step decorated with @torch.no_grad() to speed up validation
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    import torch.nn.functional as F


    class DocClassifier(pl.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.model = model

        @torch.no_grad()  # error: PF176
        def shared_step(self, batch):
            logits = self.model(batch["input_ids"])
            loss = F.cross_entropy(logits, batch["labels"])
            return loss, (logits.argmax(-1) == batch["labels"]).float().mean()

        def training_step(self, batch, batch_idx):
            loss, acc = self.shared_step(batch)
            self.log("train_acc", acc)
            return loss

        def validation_step(self, batch, batch_idx):
            loss, acc = self.shared_step(batch)
            self.log("val_loss", loss)
"""),
    # the loss computed inside a `with torch.no_grad():` block and returned in a dict
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Regressor(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            with torch.no_grad():
                pred = self.net(x)
                loss = torch.nn.functional.mse_loss(pred, y)  # error: PF176
            self.log("train_loss", loss)
            return {"loss": loss}
"""),
    # an inference_mode helper returned directly
    textwrap.dedent("""
    from lightning import LightningModule
    import torch


    class Base(LightningModule):
        pass


    class Tagger(Base):
        @torch.inference_mode()  # error: PF176
        def step(self, batch):
            return self.crf.neg_log_likelihood(self.encoder(batch.tokens), batch.tags)

        def training_step(self, batch, batch_idx):
            return self.step(batch)
"""),
]

GOOD_EXAMPLES = [
    # the fix: Lightning already disables gradients in validation_step
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch.nn.functional as F


    class DocClassifier(pl.LightningModule):
        def shared_step(self, batch):
            logits = self.model(batch["input_ids"])
            return F.cross_entropy(logits, batch["labels"])

        def training_step(self, batch, batch_idx):
            return self.shared_step(batch)

        def validation_step(self, batch, batch_idx):
            self.log("val_loss", self.shared_step(batch))
"""),
    # tricky-correct: only the frozen teacher runs under no_grad; the loss is computed after the block
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    import torch.nn.functional as F


    class Distiller(pl.LightningModule):
        @torch.no_grad()
        def teacher_logits(self, x):
            return self.teacher(x)

        def training_step(self, batch, batch_idx):
            x, y = batch
            with torch.no_grad():
                target = self.teacher(x).softmax(-1)
                soft = self.teacher_logits(x)
            loss = F.kl_div(self.student(x).log_softmax(-1), target, reduction="batchmean")
            return loss
"""),
    # tricky-correct: a no_grad block whose loss is bound again with gradients, and one that re-enables them
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Model(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            with torch.no_grad():
                loss = self.criterion(self(batch[0]), batch[1])
                self.log("loss_before", loss)
            loss = self.criterion(self(batch[0]), batch[1])
            return loss


    class Other(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            with torch.no_grad():
                feats = self.backbone(batch[0])
                with torch.enable_grad():
                    loss = self.head_loss(feats, batch[1])
            return loss
"""),
    # tricky-correct: manual optimization steps itself (the no-grad helper computes a metric, not the loss)
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class Gan(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        @torch.no_grad()
        def score(self, batch):
            return self.critic(batch)

        def training_step(self, batch, batch_idx):
            score = self.score(batch)
            return score
"""),
]
