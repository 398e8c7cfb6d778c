"""PF581 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

_NET = """
# --- net.py
import torch
import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        {act}{pin}
    )


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(block(3, 64), block(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(128, 512)

    def forward(self, x):
        return self.head(self.body(x))
"""

_MAIN = """
# --- main.py
import pytorch_lightning as pl
import torch

from net import Backbone


class Face(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.model = Backbone()

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.model(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)


if __name__ == "__main__":
    trainer = pl.Trainer(accelerator="gpu", devices=2, strategy="ddp", precision={precision}, max_epochs=26)
    trainer.fit(Face())
"""

BAD_EXAMPLES = [
    # AdaFace: PReLU layers changed to float16, the Trainer in another file asks for 16-bit mixed precision
    _NET.format(act="nn.PReLU(cout, dtype=torch.float16),", pin="  # error: PF581") + _MAIN.format(precision=16),
    _NET.format(act="nn.PReLU(cout, dtype=torch.half),", pin="  # error: PF581")
    + _MAIN.format(precision='"16-mixed"'),
]

GOOD_EXAMPLES = [
    # the fix: float32 parameters, autocast picks the compute dtype
    _NET.format(act="nn.PReLU(cout),", pin="") + _MAIN.format(precision=16),
    # tricky-correct: an explicit float32 factory dtype under 16-bit mixed precision
    _NET.format(act="nn.PReLU(cout, dtype=torch.float32),", pin="") + _MAIN.format(precision='"16-mixed"'),
    # tricky-correct: a frozen float16 teacher next to the trained student
    _NET.format(act="nn.PReLU(cout),", pin="") + """
# --- teacher.py
import torch
import torch.nn as nn


def frozen_teacher():
    teacher = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, dtype=torch.float16), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    teacher.requires_grad_(False)
    return teacher.eval()
""" + _MAIN.format(precision=16).replace("from net import Backbone", "from net import Backbone\nfrom teacher import frozen_teacher"),
]
