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

BAD_EXAMPLES = [
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
]
