"""PF104 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # 1. zero_grad between backward and step
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.zero_grad()  # error: PF104
        opt.step()
"""),
    # 2. model.zero_grad() on the model the optimizer trains, inside the accumulation boundary
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    for i, (x, y) in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(x), y) / 4
        loss.backward()
        if (i + 1) % 4 == 0:
            model.zero_grad(set_to_none=True)  # error: PF104
            opt.step()
"""),
    # 3. with a GradScaler
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        optimizer.zero_grad()  # error: PF104
        scaler.step(optimizer)
        scaler.update()
"""),
    # held-out-30 (lucidrains/byol-pytorch issue 93): a trainer module whose optimizer class is a
    # parameter defaulting to Adam; zero_grad between accelerator.backward and step
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.nn import Module
    from torch.optim import Adam


    class Trainer(Module):
        def __init__(self, net, dataloader, *, learning_rate, optimizer_klass=Adam, optimizer_kwargs=dict()):
            super().__init__()
            self.accelerator = Accelerator()
            self.net = net
            self.optimizer = optimizer_klass(self.net.parameters(), lr=learning_rate, **optimizer_kwargs)
            self.net, self.optimizer, self.dataloader = self.accelerator.prepare(self.net, self.optimizer, dataloader)

        def forward(self, num_steps):
            for _, images in zip(range(num_steps), self.dataloader):
                loss = self.net(images)
                self.accelerator.backward(loss)
                self.optimizer.zero_grad()  # error: PF104
                self.optimizer.step()
"""),
]

GOOD_EXAMPLES = [
    # 1. zero_grad after the step
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
"""),
    # 2. a GAN: clearing the generator between the discriminator's backward and step
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    G, D = nn.Linear(8, 8), nn.Linear(8, 1)
    opt_g = torch.optim.Adam(G.parameters())
    opt_d = torch.optim.Adam(D.parameters())
    for real in loader:
        fake = G(torch.randn(4, 8))
        opt_d.zero_grad()
        (D(real).mean() - D(fake).mean()).backward()
        opt_g.zero_grad()
        opt_d.step()
        (-D(fake).mean()).backward()
        opt_g.step()
"""),
    # 3. a second backward between zero_grad and step
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        warmup = model(x).pow(2).mean()
        warmup.backward()
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 4. zero_grad at the start of the step, backward and step after it
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
"""),
    # 5. accumulation: step and zero_grad together at the boundary
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        (torch.nn.functional.mse_loss(model(x), y) / 4).backward()
        if (i + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 6. model.zero_grad() on a model the optimizer does not train
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    teacher = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), teacher(x))
        loss.backward()
        teacher.zero_grad()
        opt.step()
"""),
    # the byol-pytorch trainer's fix (held-out-30): zero_grad after the step
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.nn import Module
    from torch.optim import Adam


    class Trainer(Module):
        def __init__(self, net, dataloader, *, learning_rate, optimizer_klass=Adam, optimizer_kwargs=dict()):
            super().__init__()
            self.accelerator = Accelerator()
            self.net = net
            self.optimizer = optimizer_klass(self.net.parameters(), lr=learning_rate, **optimizer_kwargs)
            self.net, self.optimizer, self.dataloader = self.accelerator.prepare(self.net, self.optimizer, dataloader)

        def forward(self, num_steps):
            for _, images in zip(range(num_steps), self.dataloader):
                loss = self.net(images)
                self.accelerator.backward(loss)
                self.optimizer.step()
                self.optimizer.zero_grad()
"""),
    # tricky-correct: a class parameter defaulting to a scheduler class is no optimizer; zeroing
    # before the backward in the same trainer shape
    textwrap.dedent("""
    import torch
    from torch.optim import Adam
    from torch.optim.lr_scheduler import StepLR


    class Trainer:
        def __init__(self, net, *, optimizer_klass=Adam, scheduler_klass=StepLR):
            self.net = net
            self.optimizer = optimizer_klass(net.parameters(), lr=1e-3)
            self.scheduler = scheduler_klass(self.optimizer, step_size=10)

        def fit(self, loader):
            for images in loader:
                self.optimizer.zero_grad()
                self.net(images).backward()
                self.optimizer.step()
                self.scheduler.step()
"""),
]
