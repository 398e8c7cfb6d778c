"""PF344 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- model.py
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class {cls}(nn.Module):
        def __init__(self, vocab, num_classes):
            super().__init__()
            self.embed = nn.Embedding(vocab, 128)
            self.fc = nn.Linear(128, num_classes)

        def forward(self, x):
            x = self.embed(x).mean(1)
            x = {dropout}
            return self.fc(x)
    # --- train.py
    import torch
    import torch.nn.functional as F

    from model import {cls}

    model = {cls}(20000, num_classes=2).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for x, y in loader:
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = sum((model(x.cuda()).argmax(1) == y.cuda()).sum().item() for x, y in val_loader)
""")

_PICK = textwrap.dedent("""
    # --- encoder.py
    import torch.nn as nn
    import torch.nn.functional as F


    class Encoder(nn.Module):
        def __init__(self, dim=512, dropout=0.1):
            super().__init__()
            self.proj = nn.Linear(dim, dim)
            self.dropout = dropout

        def forward(self, x):
            out = self.proj(x)
            out = {dropout}
            return out
    # --- train.py
    import torch

    from encoder import Encoder
    from model import PICKModel


    def evaluate({params}):
        {evaluated}.eval()
        with torch.no_grad():
            return sum(int((model(x).argmax(-1) == y).sum()) for x, y in loader)


    def main(cfg, train_loader, val_loader, teacher):
        model = PICKModel(Encoder(dropout=cfg["dropout"]), num_classes=9).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        for epoch in range(100):
            model.train()
            for x, y in train_loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            acc = evaluate({call})
""")

BAD_EXAMPLES = [
    # PICK-pytorch issue 77: the encoder is a submodule of the model that a validation function switches to eval()
    _PICK.format(dropout="F.dropout(out, p=self.dropout)  # warning: PF344", params="model, loader",
                 evaluated="model", call="model, val_loader"),
    # the same, the model passed by keyword
    _PICK.format(dropout="F.dropout(out, p=self.dropout)  # warning: PF344", params="model, loader",
                 evaluated="model", call="loader=val_loader, model=model"),
    # pytorch issue 11999: the functional default keeps dropout on after eval()
    _JOB.format(cls="TextCNN", dropout="F.dropout(x, p=0.5)  # warning: PF344"),
    _JOB.format(cls="TextCNN", dropout="F.dropout(x, 0.5, True)  # warning: PF344"),
]

GOOD_EXAMPLES = [
    # the fix
    _JOB.format(cls="TextCNN", dropout="F.dropout(x, p=0.5, training=self.training)"),
    # tricky: Monte Carlo dropout on purpose, said by the class name
    _JOB.format(cls="MCDropoutClassifier", dropout="F.dropout(x, p=0.5)"),
    # tricky: switched by hand
    _JOB.format(cls="TextCNN", dropout="F.dropout(x, p=0.5) if self.training else x"),
    # the fix of PICK-pytorch issue 77
    _PICK.format(dropout="F.dropout(out, p=self.dropout, training=self.training)", params="model, loader",
                 evaluated="model", call="model, val_loader"),
    # tricky-correct: the validation function switches another of its parameters (a teacher) to eval(), and the
    # model built around the encoder is passed in the other position
    _PICK.format(dropout="F.dropout(out, p=self.dropout)", params="model, loader, teacher",
                 evaluated="teacher", call="model, val_loader, teacher"),
]
