"""PF440 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_TUTORIAL = textwrap.dedent("""
    import torch
    from torch.optim import lr_scheduler

    model = build_model().cuda()
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    exp_lr_scheduler = lr_scheduler.{ctor}


    def train_model(model, criterion, optimizer, scheduler, num_epochs=25):
        for epoch in range(num_epochs):
            for phase in ["train", "val"]:
                for inputs, labels in dataloaders[phase]:
                    optimizer.zero_grad()
                    with torch.set_grad_enabled(phase == "train"):
                        loss = criterion(model(inputs.cuda()), labels.cuda())
                        if phase == "train":
                            loss.backward()
                            optimizer.step(){inner}
            {outer}
        return model


    model = train_model(model, criterion, optimizer, exp_lr_scheduler, num_epochs=25)
""")

BAD_EXAMPLES = [
    # ivadomed PR 55: CosineAnnealingLR(optimizer, num_epochs) stepped in the batch loop of a helper
    textwrap.dedent("""
    from torch import optim
    from torch.utils.data import DataLoader


    def cmd_train(context, model, train_dataset, loss_fct):
        num_epochs = context["num_epochs"]
        train_loader = DataLoader(train_dataset, batch_size=context["batch_size"], shuffle=True)
        optimizer = optim.Adam(model.parameters(), lr=context["initial_lr"])
        scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, num_epochs)
        for epoch in range(num_epochs):
            for i, batch in enumerate(train_loader):
                loss = loss_fct(model(batch["input"]), batch["gt"])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                scheduler.step()  # warning: PF440
        return model
"""),
    # a trainer class: StepLR with a decay period in epochs, built in __init__, stepped per batch
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import StepLR


    class Trainer:
        def __init__(self, model, args):
            self.model = model
            self.optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
            self.lr_scheduler = StepLR(self.optimizer, step_size=args.lr_decay_epochs, gamma=0.1)

        def train_epoch(self, loader):
            for x, y in tqdm(loader):
                loss = self.model(x, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.lr_scheduler.step()  # warning: PF440
"""),
    # CosineAnnealingWarmRestarts with T_0 in epochs, step() without the fractional epoch
    textwrap.dedent("""
    import torch


    def fit(model, train_dl, args):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=args.epochs // 4)
        for epoch in range(args.epochs):
            for batch in train_dl:
                model(batch).backward()
                opt.step()
                opt.zero_grad()
                sched.step()  # warning: PF440
"""),
    # pytorch/tutorials PR 640 (the transfer-learning tutorial): StepLR(step_size=7) built at module
    # level, handed to train_model and stepped there per batch: 7 is an epoch count by its size
    _TUTORIAL.format(ctor="StepLR(optimizer, step_size=7, gamma=0.1)",
                     inner="\n                        scheduler.step()  # warning: PF440", outer="pass"),
    # MultiStepLR with literal epoch milestones stepped per batch at module level
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[30, 60, 90])
    for epoch in range(100):
        for x, y in train_loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()  # warning: PF440
    """),
    # det83, Auto-PyTorch PR 210: the schedule is handed to the trainer, stored on self, and stepped in
    # train_step, which the batch loop of train_epoch calls (the reach through calls)
    textwrap.dedent("""
    import torch


    class Trainer:
        def prepare(self, model, optimizer, scheduler):
            self.model, self.optimizer = model, optimizer
            self.scheduler = scheduler

        def train_epoch(self, train_loader):
            for data, targets in train_loader:
                self.train_step(data, targets)

        def train_step(self, data, targets):
            self.optimizer.zero_grad()
            torch.nn.functional.cross_entropy(self.model(data), targets).backward()
            self.optimizer.step()
            self.scheduler.step()  # warning: PF440


    def main(model, loader, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
        trainer = Trainer()
        trainer.prepare(model, optimizer, scheduler)
        for _ in range(epochs):
            trainer.train_epoch(loader)
"""),
    # det98, STGCN issue 18: StepLR(step_size=10, gamma=0.95) stepped per batch of a loader named
    # train_iter: 0.95 per 10 batches leaves 0.6% of the rate after 1000 batches
    textwrap.dedent("""
    import torch


    def main(model, train_iter, epochs=100):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-3)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.95)
        for epoch in range(epochs):
            for x, y in train_iter:
                loss = torch.nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                scheduler.step()  # warning: PF440
    """),
    # det117 (vortex issue 58, MXNet's ``--lr-step-epochs``): the decay step named ``lr_step_epochs``, stepped
    # after every batch under an ``if scheduler is not None`` guard
    textwrap.dedent("""
    import torch


    def main(cfg, model, loader, criterion):
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg["trainer"]["lr"], momentum=0.9)
        scheduler = torch.optim.lr_scheduler.StepLR(
            optimizer, step_size=cfg["trainer"]["lr_step_epochs"], gamma=0.1)
        for epoch in range(cfg["trainer"]["epochs"]):
            for step, (images, labels) in enumerate(loader):
                loss = criterion(model(images), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if scheduler is not None:
                    scheduler.step()  # warning: PF440
"""),
]

GOOD_EXAMPLES = [
    # det117 tricky-correct: the decay step sized in iterations (``lr_step_epochs * steps_per_epoch``,
    # ``lr_step_iters``) and stepped per batch
    textwrap.dedent("""
    import torch


    def main(cfg, model, loader, criterion):
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
        steps_per_epoch = len(loader)
        scheduler = torch.optim.lr_scheduler.StepLR(
            optimizer, step_size=cfg["lr_step_epochs"] * steps_per_epoch, gamma=0.1)
        sched_b = torch.optim.lr_scheduler.StepLR(optimizer, step_size=cfg["lr_step_iters"], gamma=0.1)
        for epoch in range(cfg["epochs"]):
            for step, (images, labels) in enumerate(loader):
                loss = criterion(model(images), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                scheduler.step()
                sched_b.step()
"""),
    # det117 correct twin: ``lr_step_epochs`` stepped once per epoch
    textwrap.dedent("""
    import torch


    def main(cfg, model, loader, criterion):
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=cfg["lr_step_epochs"], gamma=0.1)
        for epoch in range(cfg["epochs"]):
            for step, (images, labels) in enumerate(loader):
                loss = criterion(model(images), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if scheduler is not None:
                scheduler.step()
"""),
    # the tutorial's fix: the passed scheduler stepped once per epoch
    _TUTORIAL.format(ctor="StepLR(optimizer, step_size=7, gamma=0.1)", inner="", outer="scheduler.step()"),
    # tricky-correct: per-batch StepLR whose literal period is in steps (large) or decays gently
    _TUTORIAL.format(ctor="StepLR(optimizer, step_size=2000, gamma=0.5)",
                     inner="\n                        scheduler.step()", outer="pass"),
    _TUTORIAL.format(ctor="StepLR(optimizer, step_size=1, gamma=0.9999)",
                     inner="\n                        scheduler.step()", outer="pass"),
    # the fix: stepped once per epoch, after the batch loop
    textwrap.dedent("""
    from torch import optim


    def cmd_train(context, model, train_loader, loss_fct):
        num_epochs = context["num_epochs"]
        optimizer = optim.Adam(model.parameters(), lr=context["initial_lr"])
        scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, num_epochs)
        for epoch in range(num_epochs):
            for i, batch in enumerate(train_loader):
                loss = loss_fct(model(batch["input"]), batch["gt"])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
"""),
    # the other fix: the period written in steps, stepped per batch
    textwrap.dedent("""
    import torch


    def train(model, train_loader, epochs):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * len(train_loader))
        for epoch in range(epochs):
            for batch in train_loader:
                model(batch).backward()
                opt.step()
                opt.zero_grad()
                sched.step()
"""),
    # total_steps named so: a step count, even with epochs in the expression
    textwrap.dedent("""
    import torch


    def train(model, train_loader, num_epochs, steps_per_epoch):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        total_steps = num_epochs * steps_per_epoch
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, total_steps)
        for batch in train_loader:
            model(batch).backward()
            opt.step()
            opt.zero_grad()
            sched.step()
"""),
    # the documented per-batch use of CosineAnnealingWarmRestarts: a fractional epoch given to step()
    textwrap.dedent("""
    import torch


    def fit(model, train_dl, epochs):
        opt = torch.optim.AdamW(model.parameters())
        sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=epochs)
        iters = len(train_dl)
        for epoch in range(epochs):
            for i, batch in enumerate(train_dl):
                model(batch).backward()
                opt.step()
                opt.zero_grad()
                sched.step(epoch + i / iters)
"""),
    # stepped inside the batch loop only at the epoch's last batch
    textwrap.dedent("""
    import torch


    def fit(model, loader, n_epochs):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=n_epochs // 3)
        for epoch in range(n_epochs):
            for i, batch in enumerate(loader):
                model(batch).backward()
                opt.step()
                opt.zero_grad()
                if i == len(loader) - 1:
                    sched.step()
"""),
    # a StepLR whose period says nothing about epochs (iterations, by the name): not judged
    textwrap.dedent("""
    import torch


    def fit(model, loader, cfg):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg.decay_every)
        for batch in loader:
            model(batch).backward()
            opt.step()
            opt.zero_grad()
            sched.step()
"""),
    # det83: the method that steps the epoch schedule is called after the batch loop, once per epoch
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, optimizer, epochs):
            self.model, self.optimizer = model, optimizer
            self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)

        def train_epoch(self, train_loader):
            for data, targets in train_loader:
                self.train_step(data, targets)
            self.end_epoch()

        def train_step(self, data, targets):
            self.optimizer.zero_grad()
            torch.nn.functional.cross_entropy(self.model(data), targets).backward()
            self.optimizer.step()

        def end_epoch(self):
            self.scheduler.step()
"""),
    # det98: the STGCN fix (stepped after the batch loop), and a per-batch StepLR whose gamma is gentle
    # enough for its period (0.99 per 10 batches keeps 37% of the rate after 1000 batches)
    textwrap.dedent("""
    import torch


    def main(model, train_iter, epochs=100):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.95)
        fine = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.99)
        for epoch in range(epochs):
            for x, y in train_iter:
                torch.nn.functional.mse_loss(model(x), y).backward()
                optimizer.step()
                optimizer.zero_grad()
                fine.step()
            scheduler.step()
    """),
    # det98: a loop over phases whose batch loop runs backward; the schedule steps once per train phase
    textwrap.dedent("""
    import torch


    def fit(model, loaders, optimizer, epochs=25):
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=7, gamma=0.1)
        for epoch in range(epochs):
            for phase in ["train", "val"]:
                for x, y in loaders[phase]:
                    optimizer.zero_grad()
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                if phase == "train":
                    scheduler.step()
    """),
]
