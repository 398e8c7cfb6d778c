"""PF1230 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Haian-Jin/LVSM pull request 19: the large-norm skip continues without scaler.update()
    textwrap.dedent("""
    import torch

    SKIP_NORM = 5.0
    model = build_model().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4)
    scaler = torch.cuda.amp.GradScaler()
    for step, batch in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(batch)["loss"]
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if grad_norm > SKIP_NORM:
            print("skipping optimizer step")
            continue  # error: PF1230
        scaler.step(optimizer)
        scaler.update()
"""),
    # a per-step method of a trainer class returns early on non-finite gradients
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import GradScaler


    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.Adam(model.parameters(), lr=1e-4)
            self.scaler = GradScaler()

        def train_step(self, x, y):
            self.opt.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(self.model(x), y)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.opt)
            norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            if not torch.isfinite(norm):
                self.opt.zero_grad()
                return None  # error: PF1230
            self.scaler.step(self.opt)
            self.scaler.update()
            return loss.item()

        def fit(self, loader):
            for x, y in loader:
                self.train_step(x, y)
"""),
    # unscale_ inside the accumulation boundary, the skip nested one level deeper
    textwrap.dedent("""
    import torch

    scaler = torch.amp.GradScaler("cuda")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for i, (x, y) in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x, y) / 4
        scaler.scale(loss).backward()
        if (i + 1) % 4 == 0:
            scaler.unscale_(opt)
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if torch.isnan(norm):
                opt.zero_grad(set_to_none=True)
                continue  # error: PF1230
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
"""),
]

GOOD_EXAMPLES = [
    # the LVSM fix: update before skipping
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4)
    for step, batch in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(batch)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if grad_norm > 5.0:
            scaler.update()
            continue
        scaler.step(optimizer)
        scaler.update()
"""),
    # tricky: the skip and the step are two branches of one if, update after both
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        scaler.scale(model(x, y)).backward()
        scaler.unscale_(opt)
        if any(not torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None):
            opt.zero_grad()
        else:
            scaler.step(opt)
        scaler.update()
        opt.zero_grad()
"""),
    # tricky: the continue belongs to an inner loop over the parameters
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        scaler.scale(model(x, y)).backward()
        scaler.unscale_(opt)
        for p in model.parameters():
            if p.grad is None:
                continue
            p.grad.clamp_(-1, 1)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
"""),
    # a disabled scaler: unscale_ does nothing
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler(enabled=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        scaler.scale(model(x, y)).backward()
        scaler.unscale_(opt)
        if torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) > 100:
            opt.zero_grad()
            continue
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
"""),
    # tricky: a step method that updates before each early return (BasicSR-style nan guard)
    textwrap.dedent("""
    import torch


    class Model:
        def __init__(self, net):
            self.net = net
            self.optimizer_g = torch.optim.Adam(net.parameters())
            self.amp_scaler = torch.cuda.amp.GradScaler()

        def optimize_parameters(self, lq, gt):
            with torch.autocast("cuda"):
                loss = torch.nn.functional.l1_loss(self.net(lq), gt)
            self.amp_scaler.scale(loss).backward()
            self.amp_scaler.unscale_(self.optimizer_g)
            if not all(torch.isfinite(p.grad).all() for p in self.net.parameters() if p.grad is not None):
                self.optimizer_g.zero_grad(set_to_none=True)
                self.amp_scaler.update()
                return
            self.amp_scaler.step(self.optimizer_g)
            self.amp_scaler.update()
"""),
    # the skip happens before unscale_: nothing is marked yet
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = model(x, y)
        if not torch.isfinite(loss):
            continue
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
"""),
]
