"""PF655 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF655`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch_warmup issue 26: the warmup is built first, the cosine scheduler records the dampened rate
    textwrap.dedent("""\
    import torch
    import pytorch_warmup as warmup

    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=1e-2)
    num_steps = len(loader) * 30
    warmup_scheduler = warmup.LinearWarmup(optimizer, warmup_period=2000)
    lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=num_steps)  # warning: PF655
    for epoch in range(30):
        for x, y in loader:
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()
            with warmup_scheduler.dampening():
                lr_scheduler.step()
"""),
    # the warmup class imported by name, inside a setup function, a transformers schedule after it
    textwrap.dedent("""\
    import torch
    from pytorch_warmup import UntunedLinearWarmup
    from transformers import get_linear_schedule_with_warmup


    def build(model, total):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        warm = UntunedLinearWarmup(opt)
        sched = get_linear_schedule_with_warmup(opt, 0, total)  # warning: PF655
        return opt, sched, warm
"""),
]

GOOD_EXAMPLES = [
    # the documented order (pytorch_warmup's README, issue 14's code): the LR scheduler first
    textwrap.dedent("""\
    import torch
    import pytorch_warmup as warmup

    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=1e-2)
    lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10000)
    warmup_scheduler = warmup.LinearWarmup(optimizer, warmup_period=2000)
    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
        with warmup_scheduler.dampening():
            lr_scheduler.step()
"""),
    # tricky: the scheduler built after the warmup belongs to another optimizer (a GAN's discriminator)
    textwrap.dedent("""\
    import torch
    import pytorch_warmup as warmup

    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4)
    sched_g = torch.optim.lr_scheduler.StepLR(opt_g, step_size=10)
    warm_g = warmup.ExponentialWarmup(opt_g, warmup_period=500)
    sched_d = torch.optim.lr_scheduler.StepLR(opt_d, step_size=10)
"""),
    # tricky: a warmup class of another library with the same name (no pytorch_warmup import)
    textwrap.dedent("""\
    import torch

    from myproject.schedules import LinearWarmup

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    warm = LinearWarmup(optimizer, warmup_period=100)
    sched = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[30, 60])
"""),
]
