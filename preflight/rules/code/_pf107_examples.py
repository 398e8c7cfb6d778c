"""PF107 examples: executable documentation (bad ones must fire, good ones stay silent)."""

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
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # error: PF107
        scaler.step(opt)
        scaler.update()
"""),
    textwrap.dedent("""
    import torch
    from torch.nn.utils import clip_grad_value_

    def train(model, opt, scaler: torch.amp.GradScaler, loader):
        for x, y in loader:
            opt.zero_grad()
            with torch.autocast("cuda"):
                loss = model(x).pow(2).mean()
            scaler.scale(loss).backward()
            clip_grad_value_(model.parameters(), 0.5)  # error: PF107
            scaler.step(opt)
            scaler.update()

    model = torch.nn.Linear(4, 1)
    train(model, torch.optim.SGD(model.parameters(), lr=0.1), torch.amp.GradScaler("cuda"), [])
"""),
    # TRL PR 595: torch's clip after accelerator.backward under fp16 mixed precision (Accelerate's
    # own GradScaler; the prepared optimizer unscales only in step)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    class PPOTrainer:
        def __init__(self, model, optimizer):
            self.accelerator = Accelerator(mixed_precision="fp16")
            self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

        def train_minibatch(self, loss):
            self.optimizer.zero_grad()
            self.accelerator.backward(loss)
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)  # error: PF107
            self.optimizer.step()
"""),
    # held-out-17 (espnet): the clip sits in a helper method the train step calls between the
    # scaled backward and scaler.step
    textwrap.dedent("""
    import torch


    class Updater:
        def __init__(self, model, max_norm):
            self.model = model
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            self.scaler = torch.cuda.amp.GradScaler()
            self.max_norm = max_norm

        def train_step(self, batch):
            self.optimizer.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = self.model(batch)
            self.scaler.scale(loss).backward()
            self.clip_gradients()
            self.scaler.step(self.optimizer)
            self.scaler.update()

        def clip_gradients(self):
            if self.max_norm:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)  # error: PF107
"""),
]

GOOD_EXAMPLES = [
    # 1. unscale_ before clipping
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
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
"""),
    # 2. no scaler: plain backward
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
"""),
    # 3. a disabled scaler
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    scaler = torch.amp.GradScaler("cuda", enabled=False)
    for x, y in loader:
        opt.zero_grad()
        scaler.scale(model(x).pow(2).mean()).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
"""),
    # 4. accumulation: unscale_ at the boundary, inside the if
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.AdamW(model.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for i, (x, y) in enumerate(loader):
        with torch.autocast("cuda"):
            loss = model(x).pow(2).mean() / 4
        scaler.scale(loss).backward()
        if (i + 1) % 4 == 0:
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
"""),
    # 5. Accelerate clips after unscaling by itself
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt = accelerator.prepare(model, opt)
    for x, y in loader:
        accelerator.backward(model(x).pow(2).mean())
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
"""),
    # the fix of TRL PR 595: Accelerate's clip unscales first
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    class PPOTrainer:
        def __init__(self, model, optimizer):
            self.accelerator = Accelerator(mixed_precision="fp16")
            self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

        def train_minibatch(self, loss):
            self.optimizer.zero_grad()
            self.accelerator.backward(loss)
            self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
"""),
    # bf16 needs no loss scale: torch's clip is fine; an explicit unscale_gradients() under fp16 also
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")
    model, opt = accelerator.prepare(model, opt)
    for batch in loader:
        accelerator.backward(model(batch).loss)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
"""),
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model, opt = accelerator.prepare(model, opt)


    def step_fp16(model, opt, loss):
        accelerator.backward(loss)
        accelerator.unscale_gradients()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
"""),
    # the helper shape done right: unscale_ before the helper call; a helper that unscales itself;
    # a helper called only after scaler.step (it clips nothing the scaler scaled)
    textwrap.dedent("""
    import torch


    class Updater:
        def __init__(self, model, max_norm):
            self.model = model
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            self.scaler = torch.cuda.amp.GradScaler()
            self.max_norm = max_norm

        def train_step(self, batch):
            self.optimizer.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = self.model(batch)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)
            self.clip_gradients()
            self.scaler.step(self.optimizer)
            self.scaler.update()

        def other_step(self, batch):
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = self.model(batch)
            self.scaler.scale(loss).backward()
            self.unscale_and_clip()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()

        def clip_gradients(self):
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)

        def unscale_and_clip(self):
            self.scaler.unscale_(self.optimizer)
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
"""),
]
