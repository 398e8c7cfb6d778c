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
    # 3. the device type as `str(device)` of a CUDA device (Open-Rig3R issue 35's shape)
    textwrap.dedent("""
    import torch
    from torch.amp import autocast

    device = torch.device("cuda")
    model = build().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for images, targets in loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast(device_type=str(device)):  # warning: PF105
            loss = criterion(model(images.to(device)), targets.to(device))
        loss.backward()
        optimizer.step()
"""),
    # 4. `device.type` of a device passed to the training function; "cuda" if available
    textwrap.dedent("""
    import torch

    def train_epoch(model, loader, optimizer, device):
        for x, y in loader:
            optimizer.zero_grad()
            with torch.autocast(device_type=device.type):  # warning: PF105
                loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
            loss.backward()
            optimizer.step()

    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = torch.nn.Linear(4, 2).to(dev)
    train_epoch(net, loader, torch.optim.SGD(net.parameters(), lr=0.1), dev)
"""),
    # 5. explicit float16
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
    # accelerate issue 68: a hand-written fp16 autocast under an Accelerator without mixed precision, whose
    # backward then has no GradScaler
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):  # warning: PF105
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
        textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="no")
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with torch.cuda.amp.autocast():  # warning: PF105
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the accelerate 68 fix: fp16 on the Accelerator, which scales the loss in backward
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with accelerator.autocast():
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
    # tricky-correct: a hand-written fp16 autocast, but the Accelerator runs fp16 itself (its GradScaler scales)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
    # tricky-correct: bf16 autocast under an Accelerator without mixed precision needs no scaler
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
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
    # 5. tricky: `device.type` of a device that is MPS or CPU, never CUDA; and a device
    # type from the command line (not known to be CUDA)
    textwrap.dedent("""
    import torch

    def train(model, loader, optimizer, loss_fn, device):
        for x, y in loader:
            optimizer.zero_grad()
            with torch.autocast(device_type=device.type):
                loss = loss_fn(model(x.to(device)), y.to(device))
            loss.backward()
            optimizer.step()

    def main(args):
        device = torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")
        model = build().to(device)
        train(model, loader, torch.optim.AdamW(model.parameters()), torch.nn.CrossEntropyLoss(), device)
        for x, y in loader:
            opt.zero_grad()
            with torch.autocast(device_type=args.device):
                loss = model(x).sum()
            loss.backward()
            opt.step()
"""),
    # 6. tricky: `str(device)` of "cuda:0" is not a device type autocast accepts (it raises:
    # loud, not this rule); bf16 for a CUDA device type
    textwrap.dedent("""
    import torch

    device = torch.device("cuda:0")
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast(device_type=str(device)):
            loss = model(x).sum()
        loss.backward()
        opt.step()
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
            loss2 = model(x).sum()
        loss2.backward()
        opt.step()
"""),
    # 7. CPU autocast (bfloat16 by default)
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
    # 8. the dtype comes from configuration
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
    # 9. a scaler handed in by the caller
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
    # tricky-correct, after the ConvNeXt/DeiT engines: autocast and a scaling helper object
    # (timm's NativeScaler) on the AMP branch, the plain backward only on the full-precision branch
    textwrap.dedent("""
    import torch


    def train_one_epoch(model, criterion, loader, optimizer, loss_scaler, use_amp):
        for samples, targets in loader:
            samples, targets = samples.cuda(), targets.cuda()
            if use_amp:
                with torch.cuda.amp.autocast():
                    loss = criterion(model(samples), targets)
            else:
                loss = criterion(model(samples), targets)
            if use_amp:
                loss_scaler(loss, optimizer, parameters=model.parameters())
            else:
                loss.backward()
                optimizer.step()
            optimizer.zero_grad()
"""),
]
