"""PF347 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn as nn
    from transformers import AutoModel


    class IntentClassifier(pl.LightningModule):
        def __init__(self, num_intents):
            super().__init__()
            self.encoder = AutoModel.from_pretrained("bert-base-uncased")
            self.num_intents = num_intents{init}

        def setup(self, stage=None):
    {setup}

        def training_step(self, batch, batch_idx):
            out = self.head(self.encoder(**batch["inputs"]).pooler_output)
            return torch.nn.functional.cross_entropy(out, batch["labels"])

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=2e-5)


    trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="{strategy}", max_epochs=5)
    trainer.fit(IntentClassifier(12))
""")

PF347_BAD = [
    # lightning issue 14534: the head exists only in the spawned workers
    _JOB.format(init="", strategy="ddp_spawn",
                setup="        self.head = nn.Linear(self.encoder.config.hidden_size, self.num_intents)"
                      "  # error: PF347"),
]

PF347_GOOD = [
    # the fix: built in __init__
    _JOB.format(init="\n        self.head = nn.Linear(self.encoder.config.hidden_size, num_intents)",
                strategy="ddp_spawn", setup="        self.stage = stage"),
    # tricky: the same setup() under ddp, which trains in the calling process
    _JOB.format(init="", strategy="ddp",
                setup="        self.head = nn.Linear(self.encoder.config.hidden_size, self.num_intents)"),
]
