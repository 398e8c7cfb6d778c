"""PF127 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF127_BAD = [
    # graviraja/MLOps-Basics#16 shape: one Accuracy object logged by both steps
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    import torchmetrics


    class ColaModel(pl.LightningModule):
        def __init__(self, lr=3e-5):
            super().__init__()
            self.save_hyperparameters()
            self.W = torch.nn.Linear(128, 2)
            self.accuracy_metric = torchmetrics.Accuracy(task="binary")

        def training_step(self, batch, batch_idx):
            logits = self.W(batch["x"])
            loss = F.cross_entropy(logits, batch["label"])
            self.accuracy_metric(logits.argmax(1), batch["label"])
            self.log("train/acc", self.accuracy_metric, on_epoch=True)
            return loss

        def validation_step(self, batch, batch_idx):
            logits = self.W(batch["x"])
            self.accuracy_metric(logits.argmax(1), batch["label"])  # warning: PF127
            self.log("valid/acc", self.accuracy_metric, on_epoch=True)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
"""),
    # through a shared step method; the metric class imported from torchmetrics.classification
    textwrap.dedent("""
    import lightning as L
    import torch
    from torchmetrics.classification import MulticlassF1Score


    class Classifier(L.LightningModule):
        def __init__(self, net, num_classes):
            super().__init__()
            self.net = net
            self.f1 = MulticlassF1Score(num_classes=num_classes)

        def _shared_step(self, batch):
            x, y = batch
            logits = self.net(x)
            self.f1.update(logits, y)  # warning: PF127
            return torch.nn.functional.cross_entropy(logits, y)

        def training_step(self, batch, batch_idx):
            loss = self._shared_step(batch)
            self.log("train_f1", self.f1, on_step=False, on_epoch=True)
            return loss

        def validation_step(self, batch, batch_idx):
            self._shared_step(batch)
            self.log("val_f1", self.f1, on_step=False, on_epoch=True)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters())
"""),
]

PF127_GOOD = [
    # the fix: one metric per stage
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    import torchmetrics


    class ColaModel(pl.LightningModule):
        def __init__(self, lr=3e-5):
            super().__init__()
            self.W = torch.nn.Linear(128, 2)
            self.train_accuracy_metric = torchmetrics.Accuracy(task="binary")
            self.val_accuracy_metric = torchmetrics.Accuracy(task="binary")

        def training_step(self, batch, batch_idx):
            logits = self.W(batch["x"])
            self.train_accuracy_metric(logits.argmax(1), batch["label"])
            self.log("train/acc", self.train_accuracy_metric, on_epoch=True)
            return F.cross_entropy(logits, batch["label"])

        def validation_step(self, batch, batch_idx):
            logits = self.W(batch["x"])
            self.val_accuracy_metric(logits.argmax(1), batch["label"])
            self.log("valid/acc", self.val_accuracy_metric, on_epoch=True)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
"""),
    # tricky-correct: a shared step that picks the metric by stage or updates under a stage branch;
    # a functional metric; validation and test sharing one object
    textwrap.dedent("""
    import lightning as L
    import torch
    import torchmetrics
    from torchmetrics.functional import accuracy


    class Classifier(L.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.train_acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)
            self.val_acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)
            self.auroc = torchmetrics.AUROC(task="multiclass", num_classes=10)
            self.eval_f1 = torchmetrics.F1Score(task="multiclass", num_classes=10)

        def _step(self, batch, stage):
            x, y = batch
            logits = self.net(x)
            metric = self.train_acc if stage == "train" else self.val_acc
            metric(logits, y)
            if stage == "val":
                self.auroc.update(logits, y)
            self.log(f"{stage}_acc", metric, on_epoch=True)
            self.log(f"{stage}_acc_fn", accuracy(logits, y, task="multiclass", num_classes=10))
            return torch.nn.functional.cross_entropy(logits, y)

        def training_step(self, batch, batch_idx):
            return self._step(batch, "train")

        def validation_step(self, batch, batch_idx):
            self._step(batch, "val")
            self.eval_f1(self.net(batch[0]), batch[1])

        def test_step(self, batch, batch_idx):
            self.eval_f1(self.net(batch[0]), batch[1])

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters())
"""),
    # tricky-correct: both steps log the batch value the call returns (computed on that batch alone)
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torchmetrics


    class LitLSTM(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.accuracy = torchmetrics.Accuracy(task="multiclass", num_classes=5)

        def training_step(self, batch, batch_idx):
            x, y = batch
            y_hat = self.net(x)
            self.log("train_acc", self.accuracy(y_hat, y))
            return torch.nn.functional.cross_entropy(y_hat, y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            y_hat = self.net(x)
            self.log("val_acc", self.accuracy(y_hat, y))

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters())
"""),
]
