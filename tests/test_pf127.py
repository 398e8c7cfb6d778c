"""PF127 metric-shared-by-train-and-val: one torchmetrics object updated by training_step and validation_step
whose accumulated state is read (graviraja/MLOps-Basics#16); the batch-value and per-stage shapes stay silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF127",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


MODEL = """\
import lightning as L
import torch
import torchmetrics


class Model(L.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        self.acc(logits, y)
        self.log("train_acc", self.acc, on_epoch=True)
        return torch.nn.functional.cross_entropy(logits, y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.acc.update(self.net(x), y)

    def on_validation_epoch_end(self):
        self.log("val_acc", self.acc.compute())
        self.acc.reset()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())
"""


def test_reported_through_the_cli(cli, tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    res = cli("check", "model.py", "--select", "PF127", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF127", 21, "warning")]
    msg = found[0]["message"]
    assert "`self.acc`" in msg and "line 10" in msg and "(line 15)" in msg and "`self.val_acc`" in msg


def test_silent_when_only_batch_values_are_logged():
    src = MODEL.replace('        self.log("train_acc", self.acc, on_epoch=True)\n', "").replace(
        '        self.log("val_acc", self.acc.compute())\n', "")
    assert "compute" not in src and 'self.log("train_acc"' not in src
    assert lines(src) == []
    batch_values = src.replace("        self.acc(logits, y)\n", '        self.log("train_acc", self.acc(logits, y))\n')
    assert lines(batch_values) == []


def test_silent_with_one_object_per_stage():
    src = MODEL.replace("self.acc.update(", "self.val_acc.update(").replace(
        '        self.acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)\n',
        '        self.acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)\n'
        '        self.val_acc = self.acc.clone()\n')
    assert lines(src) == []


def test_a_shared_helper_is_followed_unless_it_branches_on_the_stage():
    src = """
        import pytorch_lightning as pl
        import torch
        from torchmetrics import MeanSquaredError


        class Reg(pl.LightningModule):
            def __init__(self, net):
                super().__init__()
                self.net = net
                self.mse = MeanSquaredError()

            def _step(self, batch, stage):
                x, y = batch
                pred = self.net(x)
                self.mse(pred, y)
                self.log(f"{stage}_mse", self.mse, on_epoch=True)
                return torch.nn.functional.mse_loss(pred, y)

            def training_step(self, batch, batch_idx):
                return self._step(batch, "train")

            def validation_step(self, batch, batch_idx):
                return self._step(batch, "val")

            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters())
    """
    assert lines(src) == [16]
    branched = src.replace("                self.mse(pred, y)\n", '                if stage == "val":\n'
                                                                   "                    self.mse(pred, y)\n")
    assert lines(branched) == []
