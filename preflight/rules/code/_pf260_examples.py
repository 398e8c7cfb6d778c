"""PF260 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# Latte PR 53's shape (DiT-style): the step is parsed from the checkpoint's file name, the weights are loaded
# from it, and the checkpoint holds only the EMA: the AdamW state is never saved nor restored
_STEP_IN_NAME = textwrap.dedent("""
    import argparse
    import os

    import torch

    from models import get_model, training_loss

    p = argparse.ArgumentParser()
    p.add_argument("--pretrained", default="")
    args = p.parse_args()
    model = get_model("Latte-XL/2")
    train_steps = 0
    if args.pretrained:
        checkpoint = torch.load(args.pretrained, map_location="cpu")
        if "ema" in checkpoint:
            checkpoint = checkpoint["ema"]
        model.load_state_dict(checkpoint){load_opt}
        train_steps = int(os.path.basename(args.pretrained).split(".")[0]){pin}
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0){restore}
    for video in loader:
        loss = training_loss(model, video)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_steps += 1
        if train_steps % 10000 == 0:
            torch.save({{"ema": ema.state_dict(){save_opt}}}, f"results/{{train_steps:07d}}.pt")
""")

BAD_EXAMPLES = [
    # stylegan2-ada-pytorch issue 108's shape: weights and step back, two fresh Adams
    textwrap.dedent("""
    import torch

    G, D = Generator().cuda(), Discriminator().cuda()
    opt_G = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.99))
    opt_D = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.99))
    start = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location="cuda")
        G.load_state_dict(ckpt["G"])
        D.load_state_dict(ckpt["D"])
        start = ckpt["step"]  # warning: PF260
    for step in range(start, args.steps):
        train_step(G, D, opt_G, opt_D)
        if step % 5000 == 0:
            torch.save({"G": G.state_dict(), "D": D.state_dict(), "step": step}, f"{step}.pt")
"""),
    # the optimizer's state is saved, its load commented out; the epoch comes back through int(...) + 1
    textwrap.dedent("""
    import torch
    from torch import optim

    model = build_model().cuda()
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    start_epoch = 0
    if args.resume:
        checkpoint = torch.load(args.resume)
        model.load_state_dict(checkpoint["state_dict"])
        # optimizer.load_state_dict(checkpoint["optimizer"])
        start_epoch = int(checkpoint.get("epoch", 0)) + 1  # warning: PF260
    for epoch in range(start_epoch, 90):
        train(model, optimizer, epoch)
"""),
    # OneVision-Encoder PR 65's shape: the weights and the LR scheduler are saved and restored by
    # helpers, the AdamW state is not; the resume helper returns the step
    textwrap.dedent("""
    import os

    import torch

    model = Encoder().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-3, total_steps=200000)

    def save_checkpoint(step, path):
        torch.save(model.state_dict(), os.path.join(path, "backbone.pt"))
        torch.save({"scheduler": scheduler.state_dict(), "step": step}, os.path.join(path, "scheduler.pt"))

    def load_checkpoint(path):
        state = torch.load(os.path.join(path, "scheduler.pt"), map_location="cpu")
        scheduler.load_state_dict(state["scheduler"])
        model.load_state_dict(torch.load(os.path.join(path, "backbone.pt")))
        return state["step"]  # warning: PF260

    step = load_checkpoint(args.resume) if args.resume else 0
"""),
    # held-out-27 (end-to-end-SLU issue 2): the model's weights alone are checkpointed and reloaded from
    # the same file before training: Adam and the epoch counter start over on every restart
    textwrap.dedent("""
    import os

    import torch

    model = SLUModel(num_intents=31).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    ckpt = os.path.join("models", "slu_model_state.pth")
    if args.restart and os.path.exists(ckpt):
        model.load_state_dict(torch.load(ckpt, map_location="cuda"))
    for epoch in range(1, args.epochs + 1):
        for audio, intent in loader:
            loss = torch.nn.functional.cross_entropy(model(audio), intent)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save(model.state_dict(), ckpt)  # warning: PF260
"""),
    # the same inside a function, the loaded state bound to a name first
    textwrap.dedent("""
    import torch


    def main(args):
        model = Net().cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        if args.resume:
            weights = torch.load(args.checkpoint)
            model.load_state_dict(weights)
        for epoch in range(args.epochs):
            train_one_epoch(model, loader, optimizer)
            for x, y in loader:
                model(x).sum().backward()
            torch.save(model.state_dict(), args.checkpoint)  # warning: PF260
"""),
    # the epoch loop calls the file's train(epoch), which back-propagates (pytorch-cifar100's train.py shape)
    textwrap.dedent("""
    import torch
    from torch import optim

    net = get_network(args).cuda()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)


    def train(epoch):
        for images, labels in loader:
            optimizer.zero_grad()
            loss_function(net(images), labels).backward()
            optimizer.step()


    if args.resume:
        weights_path = most_recent_weights(checkpoint_dir)
        net.load_state_dict(torch.load(weights_path))
    for epoch in range(1, 200):
        train(epoch)
        weights_path = checkpoint_path.format(epoch=epoch)
        torch.save(net.state_dict(), weights_path)  # warning: PF260
"""),
    # Latte PR 53: the resumed step comes from the checkpoint's name, the optimizer never gets its state
    _STEP_IN_NAME.format(load_opt="", pin="  # warning: PF260", restore="", save_opt=""),
]

GOOD_EXAMPLES = [
    # the fix: both optimizers load their state
    textwrap.dedent("""
    import torch

    opt_G = torch.optim.Adam(G.parameters(), lr=2e-4)
    opt_D = torch.optim.Adam(D.parameters(), lr=2e-4)
    if args.resume:
        ckpt = torch.load(args.resume)
        G.load_state_dict(ckpt["G"])
        D.load_state_dict(ckpt["D"])
        opt_G.load_state_dict(ckpt["opt_G"])
        opt_D.load_state_dict(ckpt["opt_D"])
        start = ckpt["step"]
"""),
    # tricky: fine-tuning from pretrained weights (no step restored), a stateless SGD resumed,
    # and an optimizer taken whole from the checkpoint
    textwrap.dedent("""
    import torch

    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    pretrained = torch.load("pretrained.pt")
    model.load_state_dict(pretrained["model"])
"""),
    textwrap.dedent("""
    import torch

    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    ckpt = torch.load("last.pt")
    model.load_state_dict(ckpt["model"])
    start_epoch = ckpt["epoch"] + 1
"""),
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.Adam(model.parameters())
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    start_epoch = checkpoint["epoch"] + 1
    if "optimizer" in checkpoint:
        optimizer = rebuild(model)
"""),
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.AdamW(model.parameters())
    state = torch.load(path)
    model.load_state_dict(state["weights"])
    global_step = state["global_step"]
    restore_optimizer(optimizer, state)
"""),
    # tricky: the helper-shaped resume that also restores the optimizer (the fix of the shape above)
    textwrap.dedent("""
    import os

    import torch

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-3, total_steps=200000)

    def load_checkpoint(path):
        model.load_state_dict(torch.load(os.path.join(path, "backbone.pt")))
        optimizer.load_state_dict(torch.load(os.path.join(path, "optimizer.pt")))
        state = torch.load(os.path.join(path, "scheduler.pt"))
        scheduler.load_state_dict(state["scheduler"])
        return state["step"]
"""),
    # tricky: pretrained weights loaded from a file and a step read from a log: a fresh fine-tune
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    model.load_state_dict(torch.load("pretrained.pt"))
    meta = torch.load("pretrained_meta.pt")
    print(meta["epoch"])
"""),
    # the held-out-27 fix: a dict with the optimizer and the epoch, both restored
    textwrap.dedent("""
    import torch

    model = SLUModel(num_intents=31).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start_epoch = 1
    if args.restart and os.path.exists(ckpt):
        state = torch.load(ckpt)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"] + 1
    for epoch in range(start_epoch, args.epochs + 1):
        for audio, intent in loader:
            loss = torch.nn.functional.cross_entropy(model(audio), intent)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, ckpt)
"""),
    # tricky: the best weights saved during training and reloaded after it for the test pass
    textwrap.dedent("""
    import torch

    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    best = float("inf")
    for epoch in range(50):
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        val = evaluate(model)
        if val < best:
            best = val
            torch.save(model.state_dict(), "best.pt")
    model.load_state_dict(torch.load("best.pt"))
    test(model)
"""),
    # tricky: initial weights from another file than the checkpoint written during training
    textwrap.dedent("""
    import torch

    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.load_state_dict(torch.load(args.pretrained))
    for x, y in loader:
        criterion(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
    torch.save(model.state_dict(), args.output)
"""),
    # the Latte fix: the checkpoint holds the model, the EMA and the optimizer, each restored on resume
    _STEP_IN_NAME.format(load_opt="", pin="", save_opt=', "opt": opt.state_dict()',
                         restore='\nif args.pretrained:\n    opt.load_state_dict(torch.load(args.pretrained)["opt"])'),
    # tricky-correct: fine-tuning from pretrained weights, no step restored (a fresh optimizer is intended)
    _STEP_IN_NAME.format(load_opt="", pin="", restore="", save_opt="").replace(
        '    train_steps = int(os.path.basename(args.pretrained).split(".")[0])\n', ''),
]
