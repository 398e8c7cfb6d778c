"""PF119 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # Nest-of-Unets issue 14: MAX_STEP = int(1e10) as T_max, the scheduler stepped once per epoch for 15 epochs
    dedent("""
    import torch

    epoch = 15
    MAX_STEP = int(1e10)

    def main(model, train_loader, criterion):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, MAX_STEP, eta_min=1e-5)  # warning: PF119
        for i in range(epoch):
            for x, y in train_loader:
                opt.zero_grad()
                criterion(model(x), y).backward()
                opt.step()
            scheduler.step()
    """),
    # the copies: the constant inline, T_max by keyword, the scheduler imported by name
    dedent("""
    from torch import optim
    from torch.optim.lr_scheduler import CosineAnnealingLR

    optimizer = optim.Adam(model.parameters(), lr=1e-4)
    scheduler = CosineAnnealingLR(optimizer, T_max=int(1e10), eta_min=1e-5)  # warning: PF119
    scheduler1 = optim.lr_scheduler.CosineAnnealingLR(optimizer1, 10 ** 9)  # warning: PF119
    """),
]

GOOD = [
    # the fix: T_max is the number of epochs the per-epoch scheduler is stepped
    dedent("""
    import torch

    epoch = 15
    MAX_STEP = epoch
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, MAX_STEP, eta_min=1e-5)
    """),
    # tricky-correct: a large but real per-iteration schedule (epochs * iterations written as constants)
    dedent("""
    import torch

    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=300 * 5000)
    """),
    # tricky-correct: a pretraining horizon of a million steps
    dedent("""
    from torch.optim.lr_scheduler import CosineAnnealingLR

    total_steps = int(1e6)
    scheduler = CosineAnnealingLR(optimizer, total_steps, eta_min=1e-6)
    """),
    # tricky-correct: the name is bound twice (preflight cannot tell which one reaches the scheduler)
    dedent("""
    from torch.optim.lr_scheduler import CosineAnnealingLR

    MAX_STEP = int(1e10)
    MAX_STEP = args.epochs
    scheduler = CosineAnnealingLR(optimizer, MAX_STEP)
    """),
    # tricky-correct: warm restarts take T_0, a period that repeats
    dedent("""
    from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts

    scheduler = CosineAnnealingWarmRestarts(optimizer, T_0=int(1e9))
    """),
]
