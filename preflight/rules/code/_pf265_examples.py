"""PF265 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    import torchmetrics


    class LitClassifier(pl.LightningModule):
        def __init__(self, model, num_classes=10):
            super().__init__()
            self.model = model
            self.valid_acc = torchmetrics.Accuracy(task="multiclass", num_classes=num_classes)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.model(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            logits = self.model(x)
            self.log("val_loss", F.cross_entropy(logits, y))
            {update}

        def on_validation_epoch_end(self):
            {epoch_end}

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.05)
""")

PF265_BAD = [
    # held-out-23 (torchmetrics issue 269): computed by hand in the epoch-end hook, never reset
    _MODULE.format(update="self.valid_acc(logits.argmax(dim=-1), y)",
                   epoch_end='acc = self.valid_acc.compute()  # warning: PF265\n'
                             '        self.log("val_acc", acc)'),
    # update() and compute() by hand, the value logged (not the metric object)
    _MODULE.format(update="self.valid_acc.update(logits, y)",
                   epoch_end='self.log("val_acc", self.valid_acc.compute())  # warning: PF265'),
]

PF265_GOOD = [
    # the fix of the issue: reset after compute
    _MODULE.format(update="self.valid_acc(logits.argmax(dim=-1), y)",
                   epoch_end='acc = self.valid_acc.compute()\n'
                             '        self.valid_acc.reset()\n'
                             '        self.log("val_acc", acc)'),
    # tricky-correct: the metric object is logged; Lightning computes and resets it at the epoch end
    _MODULE.format(update='self.valid_acc(logits, y)\n'
                          '        self.log("val_acc", self.valid_acc, on_step=False, on_epoch=True)',
                   epoch_end='print(self.valid_acc.compute())'),
    # tricky-correct: the metric object logged through log_dict
    _MODULE.format(update='self.valid_acc.update(logits, y)\n'
                          '        self.log_dict({"val_acc": self.valid_acc})',
                   epoch_end='pass'),
    # a reset preflight cannot tie to one metric (a loop over them): silent
    _MODULE.format(update="self.valid_acc.update(logits, y)",
                   epoch_end='self.log("val_acc", self.valid_acc.compute())\n'
                             '        for metric in [self.valid_acc]:\n'
                             '            metric.reset()'),
    # tricky-correct (lightning-hydra-template, held-out-32): a best-so-far MaxMetric fed with each epoch's
    # accuracy keeps its maximum over the run on purpose; the accuracy itself is logged as an object
    textwrap.dedent("""
        import pytorch_lightning as pl
        import torch
        import torch.nn.functional as F
        from torchmetrics import Accuracy, MaxMetric


        class LitClassifier(pl.LightningModule):
            def __init__(self, model):
                super().__init__()
                self.model = model
                self.val_acc = Accuracy(task="multiclass", num_classes=10)
                self.val_acc_best = MaxMetric()

            def training_step(self, batch, batch_idx):
                x, y = batch
                return F.cross_entropy(self.model(x), y)

            def validation_step(self, batch, batch_idx):
                x, y = batch
                self.val_acc(self.model(x).argmax(dim=1), y)
                self.log("val/acc", self.val_acc, on_step=False, on_epoch=True)

            def on_validation_epoch_end(self):
                self.val_acc_best(self.val_acc.compute())
                self.log("val/acc_best", self.val_acc_best.compute(), sync_dist=True)

            def configure_optimizers(self):
                return torch.optim.SGD(self.parameters(), lr=0.05)
    """),
]
