"""PF117 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Applio#860 shape: two optimizers stepped through the scaler, then directly again
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import GradScaler, autocast


    def train(net_g, net_d, loader, d_loss, g_loss):
        optim_g = torch.optim.AdamW(net_g.parameters(), 2e-4)
        optim_d = torch.optim.AdamW(net_d.parameters(), 2e-4)
        scaler = GradScaler()
        for x, y in loader:
            with autocast():
                loss_d = d_loss(net_d, net_g, x, y)
            optim_d.zero_grad()
            scaler.scale(loss_d).backward()
            scaler.step(optim_d)
            with autocast():
                loss_g = g_loss(net_d, net_g, x, y)
            optim_g.zero_grad()
            scaler.scale(loss_g).backward()
            scaler.step(optim_g)
            scaler.update()
            optim_g.step()  # error: PF117
            optim_d.step()  # error: PF117
"""),
    # the scaler step under an AMP switch, the direct step after it unconditionally
    textwrap.dedent("""
    import torch


    def fit(model, loader, use_amp=True):
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
        for x, y in loader:
            opt.zero_grad()
            with torch.autocast("cuda", enabled=use_amp):
                loss = torch.nn.functional.cross_entropy(model(x), y)
            scaler.scale(loss).backward()
            if use_amp:
                scaler.step(opt)
                scaler.update()
            opt.step()  # error: PF117
"""),
]

GOOD_EXAMPLES = [
    # the fix: the scaler's step is the whole step
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import GradScaler


    def train(model, loader, loss_fn):
        opt = torch.optim.AdamW(model.parameters(), 1e-4)
        scaler = GradScaler()
        for x, y in loader:
            opt.zero_grad()
            scaler.scale(loss_fn(model(x), y)).backward()
            scaler.step(opt)
            scaler.update()
"""),
    # tricky-correct: the direct step is the other branch, or guarded by its own condition
    textwrap.dedent("""
    import torch


    def train(model, loader, loss_fn, scaler=None, use_amp=False):
        opt = torch.optim.AdamW(model.parameters(), 1e-4)
        scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
        for x, y in loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            if use_amp:
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                opt.step()
            if not use_amp:
                opt.step()
"""),
    # tricky-correct: the gradients zeroed and recomputed between the two steps; another optimizer stepped
    textwrap.dedent("""
    import torch


    def train(model, head, loader, loss_fn):
        opt = torch.optim.AdamW(model.parameters(), 1e-4)
        opt_head = torch.optim.SGD(head.parameters(), 0.1)
        scaler = torch.cuda.amp.GradScaler()
        for x, y in loader:
            opt.zero_grad()
            opt_head.zero_grad()
            scaler.scale(loss_fn(model(x), y)).backward()
            scaler.step(opt)
            scaler.update()
            opt_head.step()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
"""),
]
