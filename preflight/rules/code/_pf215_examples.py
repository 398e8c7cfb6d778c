"""PF215 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_TASK = dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn as nn


    class RegressionTask(pl.LightningModule):
        def __init__(self, encoder: {annotation}, hidden_dim: int = 768, learning_rate: float = 1e-3):
            super().__init__()
            self.save_hyperparameters({args}){pin}
            self.encoder = encoder
            self.head = nn.Linear(hidden_dim, 1)

        def forward(self, batch):
            return self.head(self.encoder(**batch).last_hidden_state.mean(dim=1)).squeeze(-1)

        def training_step(self, batch, batch_idx):
            return nn.functional.mse_loss(self(batch), batch["target"])

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=self.hparams.learning_rate)
    """)

PF215_BAD = [
    # Lightning issue 11494: a pretrained encoder passed in and recorded with the hyperparameters
    _TASK.format(annotation="nn.Module", args="", pin="  # warning: PF215"),
    # a transformers model annotated by its base class
    _TASK.replace("import torch.nn as nn\n", "import torch.nn as nn\nfrom transformers import PreTrainedModel\n")
    .format(annotation="PreTrainedModel", args="", pin="  # warning: PF215"),
]

PF215_GOOD = [
    # the fix of 11494
    _TASK.format(annotation="nn.Module", args='ignore=["encoder"]', pin=""),
    # tricky: the hyperparameters named one by one
    _TASK.format(annotation="nn.Module", args='"hidden_dim", "learning_rate"', pin=""),
    # tricky: the module is built inside from a name (a string hyperparameter)
    _TASK.replace("self.encoder = encoder", "self.encoder = nn.Identity()").format(
        annotation="str", args="", pin=""),
]
