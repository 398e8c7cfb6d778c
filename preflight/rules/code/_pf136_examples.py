"""PF136 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning-AI/pytorch-lightning#9299's shape: a running average of loss.item() returned as the loss
    textwrap.dedent("""
    import torch
    from pytorch_lightning import LightningModule


    class BertClassifier(LightningModule):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert
            self.tr_loss = 0.0

        def training_step(self, batch, batch_idx):
            loss = self.bert(**batch).loss
            self.tr_loss += loss.item()
            avg_loss = torch.tensor(self.tr_loss / (batch_idx + 1), device=self.device)
            self.log("train_loss", avg_loss)
            return {"loss": avg_loss}  # error: PF136
"""),
    # returned directly
    textwrap.dedent("""
    import lightning as L
    import torch


    class Model(L.LightningModule):
        def training_step(self, batch, batch_idx):
            losses = [self.criterion(self(x), y).item() for x, y in batch]
            return torch.tensor(sum(losses) / len(losses))  # error: PF136
"""),
]

GOOD_EXAMPLES = [
    # the fix: return the loss, log the average
    textwrap.dedent("""
    import torch
    from pytorch_lightning import LightningModule


    class BertClassifier(LightningModule):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert
            self.tr_loss = 0.0

        def training_step(self, batch, batch_idx):
            loss = self.bert(**batch).loss
            self.tr_loss += loss.item()
            avg_loss = torch.tensor(self.tr_loss / (batch_idx + 1), device=self.device)
            self.log("train_loss", avg_loss)
            return {"loss": loss, "avg": avg_loss}
"""),
    # tricky: a name rebound to the real loss after the float tensor, and manual optimization
    textwrap.dedent("""
    import lightning as L
    import torch


    class Model(L.LightningModule):
        def training_step(self, batch, batch_idx):
            loss = torch.tensor(0.0, device=self.device)
            loss = loss + self.criterion(self(batch[0]), batch[1])
            return loss


    class Manual(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.criterion(self(batch[0]), batch[1])
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
            return torch.tensor(loss.item())
"""),
]
