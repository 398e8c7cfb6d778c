"""PF458 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # DALLE-pytorch issue 278: ExponentialLR(gamma=0.98) meant per epoch
    textwrap.dedent("""
    import deepspeed
    from torch.optim import Adam
    from torch.optim.lr_scheduler import ExponentialLR

    opt = Adam(vae.parameters(), lr=1e-3)
    sched = ExponentialLR(optimizer=opt, gamma=0.98)
    engine, opt, _, sched = deepspeed.initialize(args=args, model=vae, optimizer=opt,
                                                 lr_scheduler=sched)  # warning: PF458
    for epoch in range(20):
        for images in loader:
            engine.backward(engine(images))
            engine.step()
"""),
    # MultiStepLR milestones in epochs; CosineAnnealingLR over the epochs, built inline
    textwrap.dedent("""
    import deepspeed
    import torch


    def main(model, args):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[30, 60, 90], gamma=0.1)
        engine, *_ = deepspeed.initialize(model=model, optimizer=opt, lr_scheduler=sched)  # warning: PF458
        other, *_ = deepspeed.initialize(
            model=model, optimizer=opt,
            lr_scheduler=torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs))  # warning: PF458
        return engine, other
"""),
]

GOOD_EXAMPLES = [
    # the fix: the epoch scheduler stays outside the engine and steps once per epoch
    textwrap.dedent("""
    import deepspeed
    from torch.optim.lr_scheduler import ExponentialLR

    sched = ExponentialLR(optimizer=opt, gamma=0.98)
    engine, opt, _, _ = deepspeed.initialize(args=args, model=vae, optimizer=opt)
    for epoch in range(20):
        for images in loader:
            engine.backward(engine(images))
            engine.step()
        sched.step()
"""),
    # step-based schedules are what the engine expects
    textwrap.dedent("""
    import deepspeed
    import torch
    from transformers import get_linear_schedule_with_warmup

    sched = get_linear_schedule_with_warmup(opt, num_warmup_steps=100, num_training_steps=10000)
    engine, *_ = deepspeed.initialize(model=model, optimizer=opt, lr_scheduler=sched)
    onecycle = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=10000)
    engine2, *_ = deepspeed.initialize(model=model, optimizer=opt, lr_scheduler=onecycle)
    steps = torch.optim.lr_scheduler.StepLR(opt, step_size=2000, gamma=0.5)
    engine3, *_ = deepspeed.initialize(model=model, optimizer=opt, lr_scheduler=steps)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.max_steps)
    engine4, *_ = deepspeed.initialize(model=model, optimizer=opt, lr_scheduler=cosine)
"""),
    # tricky-correct: a cosine period of epochs times batches is written in steps (the engine's unit)
    textwrap.dedent("""
    import deepspeed
    import torch


    def main(args, model, train_loader, epochs=50):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs * len(train_loader))
        model, optimizer, _, scheduler = deepspeed.initialize(args=args, model=model, optimizer=optimizer,
                                                              lr_scheduler=scheduler)
        per_epoch = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.num_epochs * args.steps_per_epoch)
        engine, *_ = deepspeed.initialize(args=args, model=model, optimizer=optimizer, lr_scheduler=per_epoch)
"""),
]
