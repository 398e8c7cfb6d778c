"""PF133 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Pointcept/Pointcept#379's shape: fractions of the iteration count, stepped per iteration
    textwrap.dedent("""
    import torch

    def build(optimizer, epochs, train_loader):
        total_steps = epochs * len(train_loader)
        milestone_rates = [0.6, 0.8]
        return torch.optim.lr_scheduler.MultiStepLR(
            optimizer, milestones=[rate * total_steps for rate in milestone_rates], gamma=0.1)  # warning: PF133
"""),
    # a literal list of products and a true division, passed positionally
    textwrap.dedent("""
    from torch.optim.lr_scheduler import MultiStepLR

    sched = MultiStepLR(opt, [0.5 * args.epochs, 0.75 * args.epochs])  # warning: PF133
    other = MultiStepLR(opt, milestones=[args.epochs / 2], gamma=0.1)  # warning: PF133
"""),
]

GOOD_EXAMPLES = [
    # the fix: rounded milestones
    textwrap.dedent("""
    import torch

    def build(optimizer, epochs, train_loader):
        total_steps = epochs * len(train_loader)
        milestone_rates = [0.6, 0.8]
        return torch.optim.lr_scheduler.MultiStepLR(
            optimizer, milestones=[int(rate * total_steps) for rate in milestone_rates], gamma=0.1)
"""),
    # tricky: floor division, whole factors, ints and configured lists are ints already
    textwrap.dedent("""
    from torch.optim.lr_scheduler import MultiStepLR

    a = MultiStepLR(opt, milestones=[args.epochs // 2, 3 * args.epochs // 4])
    b = MultiStepLR(opt, milestones=[2 * n for n in (10, 20)])
    c = MultiStepLR(opt, milestones=cfg.milestones, gamma=0.1)
    d = MultiStepLR(opt, milestones=[round(r * total) for r in [0.5, 0.75]])
    e = MultiStepLR(opt, milestones=[30, 60, 90])
"""),
    # tricky: the rates come from the command line, not float literals the file shows
    textwrap.dedent("""
    from torch.optim.lr_scheduler import MultiStepLR

    sched = MultiStepLR(opt, milestones=[m * steps_per_epoch for m in args.milestone_epochs])
"""),
]
