"""PF390 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # KeywordsSpotting-EfficientNet-A0 issue 1: --lr and --min_lr share the default 1e-3
    dedent("""
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--min_lr", type=float, default=1e-3)
    args = parser.parse_args()


    def build(model):
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(  # warning: PF390
            optimizer, T_max=args.epochs, eta_min=args.min_lr)
        return optimizer, scheduler
    """),
    # warm restarts with eta_min passed positionally
    dedent("""
    from torch import optim
    from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts

    LR = 0.01


    def build(model):
        opt = optim.SGD(model.parameters(), lr=LR, momentum=0.9)
        sched = CosineAnnealingWarmRestarts(opt, 10, 2, 0.01)  # warning: PF390
        return opt, sched
    """),
]

GOOD = [
    # the fix
    dedent("""
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--min_lr", type=float, default=1e-5)
    args = parser.parse_args()


    def build(model):
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
        return torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=60, eta_min=args.min_lr)
    """),
    # tricky: eta_min equals the lr of an earlier optimizer, but the scheduled one was rebuilt with a larger lr
    dedent("""
    import torch


    def build(model):
        opt = torch.optim.SGD(model.parameters(), lr=1e-4)
        warmup = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        cosine = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100, eta_min=1e-4)
        return warmup, cosine
    """),
]
