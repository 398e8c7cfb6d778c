"""PF1003 examples: bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF1003_BAD = [
    # skorch issue 317: the optimizer stays on the original module, the copy is trained
    textwrap.dedent("""
    import copy

    import torch
    import torch.nn as nn

    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
    model = copy.deepcopy(net)  # error: PF1003
    for epoch in range(100):
        x = torch.randn(128, 20)
        loss = nn.functional.mse_loss(model(x), x.sum(1, keepdim=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "model.pt")
"""),
    # k-fold: each fold copies the initial model, the optimizer was built once on the original
    textwrap.dedent("""
    import copy

    import torch


    def cross_validate(base, folds, loss_fn):
        opt = torch.optim.Adam(base.parameters(), lr=1e-3)
        scores = []
        for train_loader, val_loader in folds:
            fold_model = copy.deepcopy(base)  # error: PF1003
            for x, y in train_loader:
                opt.zero_grad()
                loss_fn(fold_model(x), y).backward()
                opt.step()
            scores.append(evaluate(fold_model, val_loader))
        return scores
"""),
]

PF1003_GOOD = [
    # the fix: the optimizer is built on the copy
    textwrap.dedent("""
    import copy

    import torch
    import torch.nn as nn

    net = nn.Linear(20, 1)
    model = copy.deepcopy(net)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(100):
        x = torch.randn(128, 20)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # tricky-correct: a teacher (EMA) copy beside the student the optimizer trains
    textwrap.dedent("""
    import copy

    import torch


    def distill(student, loader, loss_fn):
        opt = torch.optim.AdamW(student.parameters(), lr=1e-4)
        teacher = copy.deepcopy(student)
        for p in teacher.parameters():
            p.requires_grad_(False)
        for x in loader:
            with torch.no_grad():
                target = teacher(x)
            loss = loss_fn(student(x), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: a best-model snapshot after training (no training of the copy)
    textwrap.dedent("""
    import copy

    import torch


    def train(model, loader, evaluate):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        best, best_model = 0.0, None
        for epoch in range(10):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                opt.step()
            acc = evaluate(model)
            if acc > best:
                best, best_model = acc, copy.deepcopy(model)
        return best_model
"""),
]
