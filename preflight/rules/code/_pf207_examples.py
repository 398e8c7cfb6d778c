"""PF207 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF207`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the scheduler stepped first at the accumulation boundary
    textwrap.dedent("""\
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def fit(model, loader, accum, epochs):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        sched = get_cosine_schedule_with_warmup(opt, num_warmup_steps=100, num_training_steps=10000)
        for epoch in range(epochs):
            for i, batch in enumerate(loader):
                loss = model(**batch).loss / accum
                loss.backward()
                if (i + 1) % accum == 0:
                    sched.step()  # warning: PF207
                    opt.step()
                    opt.zero_grad()
"""),
    # the pre-1.1 epoch shape: stepped at the top of the epoch, the batch loop steps the optimizer
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import MultiStepLR

    net = torch.nn.Linear(8, 2)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    scheduler = MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)
    scaler = torch.cuda.amp.GradScaler()
    for epoch in range(90):
        scheduler.step()  # warning: PF207
        for x, y in train_loader:
            optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.cross_entropy(net(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
"""),
    # a multi-task trainer: optimizer and scheduler come from the model's own helper
    """\
class MultiTaskTrainer:
    def train(self, steps):
        optimizer, scheduler = self.model.prepare_optimizer_and_scheduler(steps)
        for step in range(steps):
            loss, _ = self.model(*next(self.batches))
            loss.backward()
            scheduler.step()  # warning: PF207
            optimizer.step()
            self.model.zero_grad()
""",
    # the epoch scheduler stepped before the epoch's training function that is handed the optimizer
    # (ProtoPNet issue 22: `joint_lr_scheduler.step()` then `tnt.train(..., optimizer=joint_optimizer)`)
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import StepLR

    import train_and_test as tnt

    joint_optimizer = torch.optim.Adam(ppnet.parameters(), lr=1e-4)
    joint_lr_scheduler = StepLR(joint_optimizer, step_size=5, gamma=0.1)
    for epoch in range(30):
        if epoch < 5:
            tnt.train(model=ppnet, dataloader=train_loader, optimizer=warm_optimizer)
        else:
            joint_lr_scheduler.step()  # warning: PF207
            tnt.train(model=ppnet, dataloader=train_loader, optimizer=joint_optimizer)
        tnt.test(model=ppnet, dataloader=test_loader)
"""),
]

GOOD_EXAMPLES = [
    # the fixed order at the accumulation boundary
    textwrap.dedent("""\
    import torch
    from transformers import get_linear_schedule_with_warmup


    def fit(model, loader, accum, total):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        sched = get_linear_schedule_with_warmup(opt, 10, total)
        for i, batch in enumerate(loader):
            loss = model(**batch).loss / accum
            loss.backward()
            if (i + 1) % accum == 0:
                opt.step()
                sched.step()
                opt.zero_grad()
"""),
    # tricky: a GAN steps D's scheduler before G's optimizer, after D's own optimizer
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import StepLR

    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4)
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4)
    sched_d = StepLR(opt_d, step_size=10)
    sched_g = StepLR(opt_g, step_size=10)
    for epoch in range(100):
        for real in loader:
            opt_d.zero_grad()
            opt_g.zero_grad()
            d_loss(real).backward()
            opt_d.step()
            sched_d.step()
            g_loss(real).backward()
            opt_g.step()
        sched_g.step()
"""),
    # tricky: the epoch scheduler is stepped behind a guard that skips the first epoch
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import ExponentialLR

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = ExponentialLR(optimizer, gamma=0.95)
    for epoch in range(50):
        if epoch > 0:
            scheduler.step()
        for x, y in loader:
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()
"""),
    # the scheduler belongs to another optimizer (warm-started head)
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import LambdaLR

    head_opt = torch.optim.SGD(head.parameters(), lr=0.01)
    body_opt = torch.optim.SGD(body.parameters(), lr=0.001)
    head_sched = LambdaLR(head_opt, lambda s: min(1.0, s / 100))
    for x, y in loader:
        head_opt.zero_grad()
        body_opt.zero_grad()
        loss_fn(head(body(x)), y).backward()
        head_opt.step()
        head_sched.step()
        body_opt.step()
"""),
    # tricky: the schedule is set for an explicit iteration index (`step(it)`, a project's
    # one-cycle class as in OpenPCDet): the rate of update `it` is computed for `it`, none is skipped
    textwrap.dedent("""\
    import torch

    from pcdet.utils.learning_schedules_fastai import OneCycle


    def build_scheduler(optimizer, total_iters, cfg):
        return OneCycle(optimizer, total_iters, cfg["LR"], list(cfg["MOMS"]), cfg["DIV_FACTOR"], cfg["PCT_START"])


    def train(model, loader, cfg):
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        lr_scheduler = build_scheduler(optimizer, len(loader) * 80, cfg)
        it = 0
        for epoch in range(80):
            for batch in loader:
                lr_scheduler.step(it)
                optimizer.zero_grad()
                model(batch).backward()
                optimizer.step()
                it += 1
"""),
    # the fixed ProtoPNet order: the training function steps the optimizer, then the scheduler
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import StepLR

    import train_and_test as tnt

    joint_optimizer = torch.optim.Adam(ppnet.parameters(), lr=1e-4)
    joint_lr_scheduler = StepLR(joint_optimizer, step_size=5, gamma=0.1)
    for epoch in range(30):
        tnt.train(model=ppnet, dataloader=train_loader, optimizer=joint_optimizer)
        joint_lr_scheduler.step()
        tnt.test(model=ppnet, dataloader=test_loader)
"""),
    # tricky: the function called after the scheduler step gets the optimizer but does not train
    # with it (it saves it); the training function ran earlier in the epoch
    textwrap.dedent("""\
    import torch
    from torch.optim.lr_scheduler import CosineAnnealingLR

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = CosineAnnealingLR(optimizer, T_max=200)
    for epoch in range(200):
        train_one_epoch(model, train_loader, optimizer)
        scheduler.step()
        evaluate_and_save(model, val_loader, optimizer, epoch)
        save_checkpoint(model, optimizer, scheduler, epoch)
"""),
    # tricky: the scheduler is handed to the training function, which steps it after each update;
    # the epoch-level call steps nothing before it
    textwrap.dedent("""\
    import torch
    from transformers import get_linear_schedule_with_warmup

    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    scheduler = get_linear_schedule_with_warmup(optimizer, 100, 10000)
    for epoch in range(3):
        train_epoch(model, train_loader, optimizer, scheduler)
        validate(model, val_loader)
"""),
]
