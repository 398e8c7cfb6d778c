"""PF470 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # meshed-memory-transformer issue 71: train_xe steps per batch, main steps again per epoch
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import StepLR


    def train_xe(model, dataloader, optim, scheduler, loss_fn):
        model.train()
        for it, (x, y) in enumerate(dataloader):
            optim.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optim.step()
            scheduler.step()  # warning: PF470  # warning: PF440


    def main(model, dataloader, epochs=30):
        optim = torch.optim.Adam(model.parameters(), lr=1e-4)
        sched = StepLR(optim, step_size=3, gamma=0.8)
        loss_fn = torch.nn.NLLLoss()
        for e in range(epochs):
            train_xe(model, dataloader, optim, sched, loss_fn)
            sched.step()
"""),
    # one function, nested loops; the per-batch step behind an accumulation boundary
    textwrap.dedent("""
    import torch


    def fit(model, loader, epochs, accum=4):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
        for epoch in range(epochs):
            for i, (x, y) in enumerate(loader):
                loss = torch.nn.functional.mse_loss(model(x), y) / accum
                loss.backward()
                if (i + 1) % accum == 0:
                    opt.step()
                    opt.zero_grad()
                    lr_scheduler.step()  # warning: PF470  # warning: PF440
            lr_scheduler.step()
"""),
    # a trainer class: the epoch method steps self.scheduler, and so does the batch method's loop
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, loader):
            self.model, self.loader = model, loader
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            self.lr_sched = torch.optim.lr_scheduler.MultiStepLR(self.optimizer, milestones=[30, 60])

        def train_epoch(self):
            for x, y in self.loader:
                self.optimizer.zero_grad()
                torch.nn.functional.cross_entropy(self.model(x), y).backward()
                self.optimizer.step()
                self.lr_sched.step()  # warning: PF470  # warning: PF440

        def fit(self, epochs):
            for epoch in range(epochs):
                self.train_epoch()
                self.lr_sched.step()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the epoch-based StepLR stepped once per epoch only
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import StepLR


    def train_xe(model, dataloader, optim, scheduler, loss_fn):
        model.train()
        for it, (x, y) in enumerate(dataloader):
            optim.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optim.step()


    def main(model, dataloader, epochs=30):
        optim = torch.optim.Adam(model.parameters(), lr=1e-4)
        sched = StepLR(optim, step_size=3, gamma=0.8)
        for e in range(epochs):
            train_xe(model, dataloader, optim, sched, torch.nn.NLLLoss())
            sched.step()
"""),
    # tricky-correct: a warmup scheduler per batch and a decay scheduler per epoch (two objects);
    # ReduceLROnPlateau stepped on a metric
    textwrap.dedent("""
    import torch


    def fit(model, loader, epochs, warmup_scheduler, scheduler, plateau):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(epochs):
            for x, y in loader:
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
                opt.zero_grad()
                warmup_scheduler.step()
            scheduler.step()
            plateau.step(0.5)
"""),
    # tricky-correct: the two calls are exclusive, chosen by the configuration; an explicit epoch
    textwrap.dedent("""
    import torch


    def fit(model, loader, epochs, scheduler, args):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(epochs):
            for x, y in loader:
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
                opt.zero_grad()
                if args.sched_per_step:
                    scheduler.step()
            if not args.sched_per_step:
                scheduler.step()


    def fit_timm(model, loader, epochs, lr_scheduler):
        for epoch in range(epochs):
            for i, (x, y) in enumerate(loader):
                model(x).sum().backward()
                lr_scheduler.step(epoch + i / len(loader))
            lr_scheduler.step()
"""),
    # tricky-correct: the helper steps the optimizer, not the scheduler it is given; a helper from
    # another file; a non-scheduler `.step()` (an environment) per batch and per epoch
    textwrap.dedent("""
    import torch
    from engine import train_one_epoch


    def run_epoch(model, loader, opt, scheduler):
        for x, y in loader:
            torch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            opt.zero_grad()


    def main(model, loader, opt, scheduler, env, epochs):
        for epoch in range(epochs):
            run_epoch(model, loader, opt, scheduler)
            train_one_epoch(model, loader, opt, scheduler)
            scheduler.step()
            for _ in range(10):
                env.step()
            env.step()
"""),
    # tricky-correct: a serving engine's request scheduler, stepped in nested loops that train nothing
    textwrap.dedent("""
    from engine import Scheduler


    def serve(requests, rounds):
        scheduler = Scheduler(max_num_seqs=8)
        for r in range(rounds):
            for req in requests:
                scheduler.enqueue(req)
                scheduler.step()
            scheduler.step()
    """),
    # tricky-correct, after minimind's PPO trainer: the step after the batch loop is the accumulation
    # tail's, with the leftover optimizer step (one schedule step per optimizer step)
    textwrap.dedent("""
    import torch


    def train(model, loader, epochs, accumulation_steps):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=1000)
        step = 0
        for epoch in range(epochs):
            for batch in loader:
                loss = model(batch).loss / accumulation_steps
                loss.backward()
                step += 1
                if step % accumulation_steps == 0:
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad()
            if step % accumulation_steps != 0:
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
    """),
]
