"""PF443 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_TOP_LEVEL = textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    optimizer = torch.optim.Adam(model.parameters(), lr=0.0015, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[150, 225], gamma=0.1)
    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["state_dict"])
        optimizer.load_state_dict(ckpt["optimizer"]){load}
        start_epoch = ckpt["epoch"]
    for epoch in range(start_epoch, 250):
        for imgs, pids in loader:
            loss = F.cross_entropy(model(imgs.cuda()), pids.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        torch.save({{"state_dict": model.state_dict(), "optimizer": optimizer.state_dict(),{save}{pin}
                    "epoch": epoch + 1}}, "checkpoint.pth.tar")
""")

_EMA_TRAINER = textwrap.dedent("""
    import torch
    from timm.utils import ModelEmaV2


    class Trainer:
        def __init__(self, model, optimizer, loader, path):
            self.model, self.optimizer, self.loader, self.path = model, optimizer, loader, path
            self.ema = ModelEmaV2(model, decay=0.9998)

        def resume(self):
            state = torch.load(self.path, map_location="cpu")
            self.model.load_state_dict(state["model"])
            self.optimizer.load_state_dict(state["optimizer"]){load}
            return state["epoch"] + 1

        def save(self, epoch):
            torch.save({{"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),{save}{pin}
                        "epoch": epoch}}, self.path)

        def fit(self, start, epochs):
            for epoch in range(start, epochs):
                for x, y in self.loader:
                    self.optimizer.zero_grad()
                    torch.nn.functional.mse_loss(self.model(x), y).backward()
                    self.optimizer.step()
                    self.ema.update(self.model)
                self.save(epoch)
""")

BAD_EXAMPLES = [
    # the_well issue 77: a Trainer saving model and optimizer, not its scheduler nor its GradScaler
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, optimizer, lr_scheduler, train_loader, path, enable_amp=True):
            self.model = model
            self.optimizer = optimizer
            self.lr_scheduler = lr_scheduler
            self.train_loader = train_loader
            self.path = path
            self.grad_scaler = torch.cuda.amp.GradScaler(enabled=enable_amp)

        def save_model(self, epoch):
            torch.save({  # warning: PF443
                "epoch": epoch,
                "model_state_dict": self.model.state_dict(),
                "optimizer_state_dict": self.optimizer.state_dict(),
            }, self.path)

        def train(self, epochs):
            for epoch in range(epochs):
                for batch in self.train_loader:
                    self.optimizer.zero_grad()
                    with torch.autocast("cuda", dtype=torch.float16):
                        loss = self.model(batch).mean()
                    self.grad_scaler.scale(loss).backward()
                    self.grad_scaler.step(self.optimizer)
                    self.grad_scaler.update()
                self.lr_scheduler.step()
                self.save_model(epoch)
"""),
    # one function: the local scheduler is stepped every epoch, the checkpoint forgets it
    textwrap.dedent("""
    import torch


    def train(model, loader, epochs, ckpt_path):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-4, total_steps=epochs * len(loader))
        for epoch in range(epochs):
            for batch in loader:
                optimizer.zero_grad()
                model(batch).backward()
                optimizer.step()
                scheduler.step()
            print(epoch, scheduler.get_last_lr())
            torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()}, ckpt_path)  # warning: PF443
"""),
    # held-out-23 (the_well PR 63): a plain saving function called from the script's epoch loop, which
    # steps the module-level scheduler the checkpoint leaves out
    textwrap.dedent("""
    import argparse

    import torch
    import torch.nn.functional as F

    model = FNO().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=5)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=95)
    lr_scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[5])


    def save_model(epoch, path):
        torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),  # warning: PF443
                    "optimizer_state_dict": optimizer.state_dict()}, path)


    for epoch in range(start_epoch, 100):
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        lr_scheduler.step()
        save_model(epoch, "checkpoints/last.pt")
"""),
    # deep-person-reid issue 270: a script's top-level epoch loop steps a MultiStepLR and saves model,
    # optimizer and epoch only; the resumed run starts the milestones again
    _TOP_LEVEL.format(load="", save="", pin="  # warning: PF443"),
    # ai2cm/ace issue 349: the trainer keeps an EMA of the weights (validated and exported) but its resume
    # checkpoint holds model, optimizer and epoch only; a resumed run rebuilds the average from the raw weights
    _EMA_TRAINER.format(load="", save="", pin="  # warning: PF443"),
]

GOOD_EXAMPLES = [
    # the fix at top level: the scheduler's state saved and loaded with the rest
    _TOP_LEVEL.format(load='\n    scheduler.load_state_dict(ckpt["scheduler"])',
                      save=' "scheduler": scheduler.state_dict(),', pin=""),
    # the fix: every stateful piece saved
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, optimizer, lr_scheduler):
            self.model = model
            self.optimizer = optimizer
            self.lr_scheduler = lr_scheduler
            self.grad_scaler = torch.cuda.amp.GradScaler()

        def save_model(self, epoch, path):
            torch.save({
                "epoch": epoch,
                "model_state_dict": self.model.state_dict(),
                "optimizer_state_dict": self.optimizer.state_dict(),
                "lr_scheduler_state_dict": self.lr_scheduler.state_dict(),
                "grad_scaler_state_dict": self.grad_scaler.state_dict(),
            }, path)

        def step(self, loss):
            self.grad_scaler.scale(loss).backward()
            self.grad_scaler.step(self.optimizer)
            self.grad_scaler.update()
            self.lr_scheduler.step()
"""),
    # the scheduler added to the dict after it is built
    textwrap.dedent("""
    import torch


    def train(model, loader, epochs, ckpt_path):
        optimizer = torch.optim.AdamW(model.parameters())
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
        for epoch in range(epochs):
            for batch in loader:
                optimizer.zero_grad()
                model(batch).backward()
                optimizer.step()
            scheduler.step()
            state = {"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()}
            state["scheduler"] = scheduler.state_dict()
            torch.save(state, ckpt_path)
            torch.save({"epoch": epoch, "optimizer": optimizer.state_dict(), "sched": scheduler}, ckpt_path + ".b")
"""),
    # a weights-only export (no optimizer state) and a dict with ** entries
    textwrap.dedent("""
    import torch


    def train(model, optimizer, scheduler, extra, epochs):
        for epoch in range(epochs):
            scheduler.step()
            torch.save({"epoch": epoch, "model": model.state_dict()}, "weights.pt")
            torch.save({"epoch": epoch, "optimizer": optimizer.state_dict(), **extra}, "last.pt")
"""),
    # the schedule rebuilt from the epoch on resume
    textwrap.dedent("""
    import torch


    def train(model, loader, start_epoch, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 30, last_epoch=start_epoch - 1)
        for epoch in range(start_epoch, epochs):
            for batch in loader:
                optimizer.zero_grad()
                model(batch).backward()
                optimizer.step()
            scheduler.step()
            torch.save({"epoch": epoch, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}, "c.pt")
"""),
    # the fix of the_well PR 63: the plain saving function saves the scheduler too
    textwrap.dedent("""
    import argparse

    import torch
    import torch.nn.functional as F

    model = FNO().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=5)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=95)
    lr_scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[5])


    def save_model(epoch, path):
        torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),
                    "optimizer_state_dict": optimizer.state_dict(),
                    "lr_scheduler_state_dict": lr_scheduler.state_dict()}, path)


    for epoch in range(start_epoch, 100):
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        lr_scheduler.step()
        save_model(epoch, "checkpoints/last.pt")
"""),
    # tricky-correct: the caller hands the scheduler to the saving function under another name
    textwrap.dedent("""
    import argparse

    import torch
    import torch.nn.functional as F

    model = FNO().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=5)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=95)
    lr_scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[5])


    def save_model(epoch, path, sched):
        torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),
                    "optimizer_state_dict": optimizer.state_dict(), "sched": sched.state_dict()}, path)


    for epoch in range(start_epoch, 100):
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        lr_scheduler.step()
        save_model(epoch, "checkpoints/last.pt", lr_scheduler)
"""),
    # tricky-correct: the caller saves the scheduler's state to a file of its own
    textwrap.dedent("""
    import argparse

    import torch
    import torch.nn.functional as F

    model = FNO().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=5)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=95)
    lr_scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[5])


    def save_model(epoch, path):
        torch.save({"epoch": epoch, "model_state_dict": model.state_dict(),
                    "optimizer_state_dict": optimizer.state_dict()}, path)


    for epoch in range(start_epoch, 100):
        for x, y in loader:
            optimizer.zero_grad()
            F.mse_loss(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        lr_scheduler.step()
        save_model(epoch, "checkpoints/last.pt")
        torch.save(lr_scheduler.state_dict(), "checkpoints/last_scheduler.pt")
"""),
    # the ace fix: the EMA saved with the checkpoint and restored on resume
    _EMA_TRAINER.format(load='\n        self.ema.load_state_dict(state["ema"])',
                        save=' "ema": self.ema.state_dict(),', pin=""),
    # tricky-correct: an EMA saved to a file of its own next to every checkpoint and reloaded from it; a
    # weights-only export of the EMA at the end of a script that does not resume
    textwrap.dedent("""
    import torch
    from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

    ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.999))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    start = 0
    if resume:
        state = torch.load("last.pt")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        ema.load_state_dict(torch.load("last_ema.pt"))
        start = state["epoch"] + 1
    for epoch in range(start, 100):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            ema.update_parameters(model)
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "last.pt")
        torch.save(ema.state_dict(), "last_ema.pt")
"""),
    textwrap.dedent("""
    import torch
    from ema_pytorch import EMA

    ema = EMA(model, beta=0.999)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for epoch in range(100):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            ema.update()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "last.pt")
    torch.save(ema.ema_model.state_dict(), "ema.pt")
"""),
]
