"""PF680 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

_GNN = dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F

    from gnn import GIN


    class GraphClassifier(pl.LightningModule):
        def __init__(self, in_channels, num_classes):
            super().__init__()
            self.gnn = GIN(in_channels, 64, num_classes)

        def training_step(self, batch, batch_idx):
            out = self.gnn(batch.x, batch.edge_index, batch.batch)
            loss = F.cross_entropy(out, batch.y)
            self.log("train_loss", loss{train})
            return loss

        def validation_step(self, batch, batch_idx):
            out = self.gnn(batch.x, batch.edge_index, batch.batch)
            loss = F.cross_entropy(out, batch.y)
            self.log("val_loss", loss{val}){pin}

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
""")

# DiffCSP-style: the step hands the batch to forward, which reads batch.num_graphs; log_dict of a dict
_FORWARD = dedent("""
    import lightning.pytorch as pl
    import torch


    class CSPDiffusion(pl.LightningModule):
        def forward(self, batch):
            times = torch.rand(batch.num_graphs, device=self.device)
            return {{"loss": self.decoder(times, batch.frac_coords)}}

        def validation_step(self, batch, batch_idx):
            output = self(batch)
            log_dict = {{"val_loss": output["loss"]}}
            self.log_dict(log_dict, on_step=False, on_epoch=True{size}){pin}
            return output["loss"]
""")

_W = "  # warning: PF680"

BAD = [
    # pyg-team/pytorch_geometric#9829: val_loss weighted by a guessed size
    _GNN.format(train=", batch_size=batch.num_graphs", val="", pin=_W),
    # the batch reaches forward; the dict of losses is averaged over the epoch
    _FORWARD.format(size="", pin=_W),
]

GOOD = [
    # the fix: the number of graphs given
    _GNN.format(train=", batch_size=batch.num_graphs", val=", batch_size=batch.num_graphs", pin=""),
    _FORWARD.format(size=", batch_size=batch.num_graphs", pin=""),
    # training_step logs per step by default (no epoch mean); the validation log is per step only
    _GNN.format(train="", val=", on_epoch=False, on_step=True", pin=""),
    # reduced with max, not a weighted mean
    _GNN.format(train="", val=', reduce_fx="max"', pin=""),
    # tricky-correct: a tuple batch (x, y): Lightning takes the size of x
    dedent("""
    import lightning.pytorch as pl
    import torch.nn.functional as F


    class Regressor(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.mse_loss(self.net(x.edge_index), y)
            self.log("val_loss", loss)
    """),
    # tricky-correct: node-level training on one whole graph (Planetoid masks): one batch per epoch
    dedent("""
    import lightning.pytorch as pl


    class NodeLevelGNN(pl.LightningModule):
        def forward(self, data, mode="train"):
            x = self.model(data.x, data.edge_index)
            mask = data.val_mask if mode == "val" else data.train_mask
            return (x[mask].argmax(dim=-1) == data.y[mask]).float().mean()

        def validation_step(self, batch, batch_idx):
            acc = self.forward(batch, mode="val")
            self.log("val_acc", acc)
    """),
    # tricky-correct: a torchmetrics object logged from a graph step keeps its own counts
    dedent("""
    import lightning.pytorch as pl


    class Classifier(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            preds = self.gnn(batch.x, batch.edge_index, batch.batch).argmax(-1)
            self.val_acc(preds, batch.y)
            self.log("val_acc", self.val_acc)
    """),
]
