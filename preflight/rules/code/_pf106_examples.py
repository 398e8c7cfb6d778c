"""PF106 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.AdamW(model.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)  # error: PF106
"""),
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import GradScaler, autocast

    class Trainer:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            self.scaler = GradScaler()

        def fit(self, loader):
            for x, y in loader:
                self.optimizer.zero_grad()
                with autocast():
                    loss = self.model(x).pow(2).mean()
                self.scaler.scale(loss).backward()
                self.scaler.step(self.optimizer)  # error: PF106
"""),
]

GOOD_EXAMPLES = [
    # 1. the AMP recipe
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.AdamW(model.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
"""),
    # 2. update in another method
    textwrap.dedent("""
    import torch

    class Trainer:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            self.scaler = torch.amp.GradScaler("cuda")

        def fit(self, loader):
            for x, y in loader:
                self.optimizer.zero_grad()
                with torch.autocast("cuda"):
                    loss = self.model(x).pow(2).mean()
                self.scaler.scale(loss).backward()
                self.scaler.step(self.optimizer)
                self.end_step()

        def end_step(self):
            self.scaler.update()
"""),
    # 3. a disabled scaler
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda", enabled=False)
    for x, y in loader:
        opt.zero_grad()
        scaler.scale(model(x).pow(2).mean()).backward()
        scaler.step(opt)
"""),
    # 4. two optimizers, one update after both steps
    textwrap.dedent("""
    import torch

    G, D = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1)
    opt_g = torch.optim.Adam(G.parameters())
    opt_d = torch.optim.Adam(D.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for real in loader:
        opt_d.zero_grad()
        opt_g.zero_grad()
        with torch.autocast("cuda"):
            d_loss = D(real).mean()
            g_loss = -D(G(real)).mean()
        scaler.scale(d_loss + g_loss).backward()
        scaler.step(opt_d)
        scaler.step(opt_g)
        scaler.update()
"""),
    # 5. the scaler is handed to a helper preflight cannot see
    textwrap.dedent("""
    import torch
    from mylib import finish_step

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    for x, y in loader:
        opt.zero_grad()
        scaler.scale(model(x).pow(2).mean()).backward()
        scaler.step(opt)
        finish_step(scaler)
"""),
]
