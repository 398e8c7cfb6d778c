"""PF118 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # onsets-and-frames#24 shape: step, scheduler step, then a conditional clip
    textwrap.dedent("""
    import torch
    from torch.nn.utils import clip_grad_norm_


    def train(model, loader, iterations, clip_gradient_norm=3.0):
        optimizer = torch.optim.Adam(model.parameters(), 6e-4)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10000, gamma=0.98)
        for i, batch in zip(range(iterations), loader):
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            if clip_gradient_norm:
                clip_grad_norm_(model.parameters(), clip_gradient_norm)  # warning: PF118
"""),
    # under AMP, clip_grad_value_ after the scaler's step, inside the accumulation boundary
    textwrap.dedent("""
    import torch


    def fit(model, loader, accum=4):
        opt = torch.optim.AdamW(model.parameters(), 1e-4)
        scaler = torch.cuda.amp.GradScaler()
        for i, (x, y) in enumerate(loader):
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(model(x), y) / accum
            scaler.scale(loss).backward()
            if (i + 1) % accum == 0:
                scaler.step(opt)
                scaler.update()
                torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)  # warning: PF118
                opt.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the clip between backward and step
    textwrap.dedent("""
    import torch
    from torch.nn.utils import clip_grad_norm_


    def train(model, loader, clip_gradient_norm=3.0):
        optimizer = torch.optim.Adam(model.parameters(), 6e-4)
        for batch in loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            if clip_gradient_norm:
                clip_grad_norm_(model.parameters(), clip_gradient_norm)
            optimizer.step()
"""),
    # tricky-correct: a GAN clips the generator after stepping the discriminator; the clip of
    # the next micro-batch follows its own backward; accumulation steps under an if
    textwrap.dedent("""
    import torch


    def train(gen, disc, loader, d_loss, g_loss, accum=2):
        opt_g = torch.optim.Adam(gen.parameters(), 2e-4)
        opt_d = torch.optim.Adam(disc.parameters(), 2e-4)
        for i, (x, z) in enumerate(loader):
            opt_d.zero_grad()
            opt_g.zero_grad()
            d_loss(disc, gen, x, z).backward()
            g_loss(disc, gen, z).backward()
            opt_d.step()
            torch.nn.utils.clip_grad_norm_(gen.parameters(), 1.0)
            opt_g.step()


    def accumulate(model, loader, accum=4):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for i, (x, y) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(model(x), y) / accum
            loss.backward()
            if (i + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)


    def two_phase(model, loader):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
"""),
]
