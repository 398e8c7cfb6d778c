"""PF346 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_STEP = textwrap.dedent("""
    import lightning as L
    import torch.nn.functional as F

    DOMAINS = ["photo", "sketch", "cartoon", "painting"]


    class DomainClassifier(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y, domain = batch
            correct = self.net(x).argmax(1) == y
    {body}


    trainer = L.Trainer(accelerator="gpu", devices=4, strategy="ddp")
""")

PF346_BAD = [
    # lightning issue 21409: the keys depend on the domains present in this rank's batch
    _STEP.format(body='        for d in domain.unique().tolist():\n'
                      '            self.log(f"val_acc_{DOMAINS[d]}", correct[domain == d].float().mean(),'
                      ' sync_dist=True)  # error: PF346'),
]

PF346_GOOD = [
    # the same keys on every rank: a constant loop
    _STEP.format(body='        for d in range(len(DOMAINS)):\n'
                      '            self.log(f"val_count_{DOMAINS[d]}", (domain == d).sum().float(), sync_dist=True)'),
    # tricky: the loop runs over the batch, but the key is constant
    _STEP.format(body='        for d in domain.unique().tolist():\n'
                      '            self.log("val_acc", correct.float().mean(), sync_dist=True)'),
    # tricky: batch-dependent keys without sync_dist: no collective
    _STEP.format(body='        for d in domain.unique().tolist():\n'
                      '            self.log(f"val_acc_{DOMAINS[d]}", correct[domain == d].float().mean())'),
]
