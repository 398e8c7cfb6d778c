"""PF112 across files: a model whose ``forward`` returns probabilities, defined in another file
of the project, fed to a loss that applies the activation itself (held-out-16, in-sample).

Each test writes a small project into a folder and runs ``preflight check`` on it as a user
would; it states what the user sees: the finding on the loss line, or silence."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

MODELS = """
import torch
import torch.nn as nn


class PairScorer(nn.Module):
    def __init__(self, encoder, hidden):
        super().__init__()
        self.encoder = encoder
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, a, b):
        scores = self.proj(self.encoder(a)) @ self.proj(self.encoder(b)).transpose(-1, -2)
        return {ret}
"""

TRAINER = """
import torch
import torch.nn as nn


def fit(loader, model, optimizer):
    criterion = nn.CrossEntropyLoss()
    for a, b in loader:
        out = model(a, b)
        target = torch.arange(out.shape[-1]).expand(out.shape[0], -1)
        loss = criterion(out.flatten(0, 1), target.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""

IMPORTING = """
import torch.nn.functional as F
from models import PairScorer


def main(loader, encoder):
    model = PairScorer(encoder, 64)
    opt = __import__("torch").optim.SGD(model.parameters(), lr=0.1)
    for a, b, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(a, b), y)
        loss.backward()
        opt.step()
"""


def check(folder: Path) -> list[tuple[str, str, int]]:
    out = subprocess.run([sys.executable, "-m", "preflight", "check", str(folder), "--no-cache", "--format",
                          "json", "--exit-zero", "--select", "PF112"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    found = data["findings"] if isinstance(data, dict) else data
    return [(f["code"], Path(f["path"]).name, f["line"]) for f in found]


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return folder


def test_softmax_returned_by_the_model_beside_the_trainer_is_reported_on_the_loss(tmp_path):
    folder = write(tmp_path / "p", {"models.py": MODELS.format(ret="torch.softmax(scores, dim=-1)"),
                                    "trainer.py": TRAINER})
    assert check(folder) == [("PF112", "trainer.py", 11)]


def test_logits_returned_by_the_model_beside_the_trainer_stay_silent(tmp_path):
    folder = write(tmp_path / "p", {"models.py": MODELS.format(ret="scores"), "trainer.py": TRAINER})
    assert check(folder) == []


def test_two_model_classes_beside_the_trainer_leave_it_unknown(tmp_path):
    other = MODELS.format(ret="scores").replace("PairScorer", "OtherScorer")
    folder = write(tmp_path / "p", {"models.py": MODELS.format(ret="torch.softmax(scores, dim=-1)"),
                                    "other.py": other, "trainer.py": TRAINER})
    assert check(folder) == []


def test_a_layer_class_is_not_taken_for_the_model(tmp_path):
    # the softmax head is a layer of the real model, which returns logits
    wrapper = """
    import torch.nn as nn
    from models import PairScorer


    class Wrapper(nn.Module):
        def __init__(self, enc):
            super().__init__()
            self.inner = PairScorer(enc, 64)
            self.out = nn.Linear(64, 64)

        def forward(self, a, b):
            return self.out(a)
    """
    folder = write(tmp_path / "p", {"models.py": MODELS.format(ret="torch.softmax(scores, dim=-1)"),
                                    "wrapper.py": wrapper, "trainer.py": TRAINER})
    assert check(folder) == []


def test_imported_model_class_is_followed_into_its_module(tmp_path):
    folder = write(tmp_path / "p", {"models.py": MODELS.format(ret="scores.softmax(-1)"),
                                    "train.py": IMPORTING})
    assert check(folder) == [("PF112", "train.py", 11)]
    fixed = write(tmp_path / "q", {"models.py": MODELS.format(ret="scores"), "train.py": IMPORTING})
    assert check(fixed) == []


EVAL_SOFTMAX_MODEL = """
import torch
from torch import nn


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 1)

    def forward(self, x):
        x = self.conv(x)
        if not self.training:
            x = {eval_branch}
        return x
"""

VALIDATING = """
import torch
from torch import nn

from models import UNet


def validate(model, loader, criterion):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += criterion(model(x), y).item()
    model.train()
    return total


model = UNet().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())
for epoch in range(3):
    for x, y in train_loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(validate(model, val_loader, criterion))
"""


def test_eval_only_softmax_of_an_imported_model_is_reported_on_the_validation_loss_only(tmp_path):
    # det131 (pytorch-3dunet issue 45): the training loss (train mode) stays silent, the one after model.eval() is
    # reported
    folder = write(tmp_path / "p", {"models.py": EVAL_SOFTMAX_MODEL.format(eval_branch="torch.softmax(x, dim=1)"),
                                    "train.py": VALIDATING})
    assert check(folder) == [("PF112", "train.py", 13)]
    fixed = write(tmp_path / "q", {"models.py": EVAL_SOFTMAX_MODEL.format(eval_branch="x.float()"),
                                   "train.py": VALIDATING})
    assert check(fixed) == []
