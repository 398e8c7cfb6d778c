"""PF105 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # 1. torch.autocast("cuda") defaults to float16 on CUDA
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cuda"):  # warning: PF105
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 2. torch.cuda.amp.autocast() imported by name
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import autocast

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        with autocast():  # warning: PF105
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 3. explicit float16
    textwrap.dedent("""
    import torch

    def train(model, opt, loader):
        for x, y in loader:
            opt.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):  # warning: PF105
                loss = model(x).float().pow(2).mean()
            loss.backward()
            opt.step()

    net = torch.nn.Linear(4, 1).cuda()
    train(net, torch.optim.SGD(net.parameters(), lr=0.1), [])
"""),
]

GOOD_EXAMPLES = [
    # 1. the AMP recipe with a GradScaler
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
    # 2. bfloat16 needs no scaler
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 3. Accelerate applies the scaling in accelerator.backward
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
    # 4. autocast for inference only
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()

    @torch.no_grad()
    def predict(x):
        with torch.autocast("cuda"):
            return model(x)
"""),
    # 5. CPU autocast (bfloat16 by default)
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cpu"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 6. the dtype comes from configuration
    textwrap.dedent("""
    import torch

    ptdtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    model = torch.nn.Linear(10, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast(device_type="cuda", dtype=ptdtype):
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 7. a scaler handed in by the caller
    textwrap.dedent("""
    import torch

    def train_step(model, opt, scaler, x, y):
        opt.zero_grad()
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
"""),
]
