"""PF294 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # menzelab/implicit-shape-reconstruction#2's shape, with the evaluation in the same file
    textwrap.dedent("""
    import torch
    from torch import nn

    net = ImplicitNet(latent_dim=128)
    if torch.cuda.device_count() > 1:
        net = nn.DataParallel(net)
    net = net.cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    for epoch in range(500):
        train_one_epoch(net, optimizer)
        torch.save({"epoch": epoch, "net_state": net.state_dict()}, "net.pt")  # warning: PF294


    def evaluate(path):
        model = ImplicitNet(latent_dim=128).cuda()
        model.load_state_dict(torch.load(path)["net_state"])
        return model
"""),
    # pan_pp.pytorch#14's shape: the wrapper moved to the GPU in the same statement, its state saved
    # through a dict bound to a name first; the finding is on the wrapper's `state_dict()`
    textwrap.dedent("""
    import torch

    model = torch.nn.DataParallel(build_model()).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(600):
        train_one_epoch(model, optimizer)
        state = dict(
            epoch=epoch + 1,
            state_dict=model.state_dict(),  # warning: PF294
            optimizer=optimizer.state_dict(),
        )
        torch.save(state, "checkpoint.pth.tar")


    def test(path):
        net = build_model().cuda()
        net.load_state_dict(torch.load(path)["state_dict"])
        return net
"""),
    # det143: the deadends.dev "state-dict-key-mismatch" / Stack Overflow "results different on each run
    # with strict=False" shape: the DataParallel wrapper's state saved, then loaded with strict=False into a
    # fresh plain network in the same script; nothing is loaded, silently
    textwrap.dedent("""
    import torch
    from torch import nn


    def train():
        model = nn.DataParallel(Net().cuda())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(100):
            step(model, opt)
        torch.save(model.state_dict(), "net.pth")  # warning: PF294


    def evaluate():
        model = Net().cuda()
        model.load_state_dict(torch.load("net.pth"), strict=False)
        model.eval()
        return model
"""),
    # det143: the loaded dict bound to a name first, the plain model under another name
    textwrap.dedent("""
    import torch

    net = torch.nn.DataParallel(build_net()).cuda()
    for epoch in range(30):
        train_one_epoch(net)
    torch.save({"state_dict": net.state_dict()}, "checkpoints/best.pt")  # warning: PF294
    plain = build_net()
    ckpt = torch.load("checkpoints/best.pt", map_location="cpu")
    plain.load_state_dict(ckpt["state_dict"], strict=False)
"""),
    # det143: the strict load in an evaluate() that rebinds the wrapper's name to a fresh plain network
    textwrap.dedent("""
    import torch
    from torch import nn


    def train():
        model = nn.DataParallel(Net().cuda())
        fit(model)
        torch.save(model.state_dict(), "net.pth")  # warning: PF294


    def evaluate():
        model = Net().cuda()
        model.load_state_dict(torch.load("net.pth"))
        return model
"""),
]

GOOD_EXAMPLES = [
    # pan_pp.pytorch#14's fix: the dict bound first holds the inner network's state
    textwrap.dedent("""
    import torch

    model = torch.nn.DataParallel(build_model()).cuda()
    for epoch in range(600):
        train_one_epoch(model)
        state = dict(epoch=epoch + 1, state_dict=model.module.state_dict())
        torch.save(state, "checkpoint.pth.tar")


    def test(path):
        net = build_model().cuda()
        net.load_state_dict(torch.load(path)["state_dict"])
        return net
"""),
    # tricky: the checkpoint loader takes the model from its caller, which passes the wrapper (I-JEPA's
    # load_checkpoint), and the EMA helper's shadow state is keyed by the wrapper's own names
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel


    def load_checkpoint(path, encoder, ema_helper):
        checkpoint = torch.load(path, map_location="cpu")
        encoder.load_state_dict(checkpoint["encoder"])
        ema_helper.load_state_dict(checkpoint["ema"])
        return encoder


    encoder = DistributedDataParallel(build_encoder().cuda())
    ema_helper = EMAHelper(encoder)
    encoder = load_checkpoint("latest.pth.tar", encoder, ema_helper)
    for epoch in range(100):
        train_one_epoch(encoder, ema_helper)
        save_dict = {"encoder": encoder.state_dict(), "ema": ema_helper.state_dict()}
        torch.save(save_dict, "latest.pth.tar")
"""),
    # tricky: the state of the wrapper, bound to a name and saved, is loaded back into the wrapper
    textwrap.dedent("""
    import torch

    model = torch.nn.DataParallel(build_model()).cuda()
    state = torch.load("checkpoint.pth.tar")
    model.load_state_dict(state["state_dict"])
    for epoch in range(600):
        train_one_epoch(model)
        state = {"state_dict": model.state_dict()}
        torch.save(state, "checkpoint.pth.tar")
"""),
    # the fix: the inner network's state is saved
    textwrap.dedent("""
    import torch
    from torch import nn

    net = nn.DataParallel(ImplicitNet()).cuda()
    for epoch in range(500):
        train_one_epoch(net)
        torch.save({"net_state": net.module.state_dict()}, "net.pt")


    def evaluate(path):
        model = ImplicitNet().cuda()
        model.load_state_dict(torch.load(path)["net_state"])
        return model
"""),
    # tricky: the wrapper's state is loaded back into the wrapper (resume), or loaded non-strictly,
    # or the prefix is stripped
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = DDP(Net().cuda(), device_ids=[rank])
    if args.resume:
        model.load_state_dict(torch.load(args.resume, map_location="cuda"))
    for epoch in range(90):
        train(model)
        torch.save(model.state_dict(), "last.pt")


    def export(path):
        plain = Net()
        plain.load_state_dict(torch.load(path), strict=False)
        return plain
"""),
    textwrap.dedent("""
    import torch
    from torch import nn

    net = nn.DataParallel(Net())
    torch.save(net.state_dict(), "net.pt")
    state = {k.replace("module.", ""): v for k, v in torch.load("net.pt").items()}
    fresh = Net()
    fresh.load_state_dict(state)
"""),
    # tricky: beside the wrapped model the script saves a progress tracker's own state and, on
    # resume, loads it back into that same tracker (and the wrapper's state into the wrapper)
    textwrap.dedent("""
    import torch
    from torch import nn

    model = Net().cuda()
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)
    tracker = StepTracker(patience=16)


    def save(path):
        torch.save({"model": model.state_dict(), "tracker": tracker.state_dict()}, path)


    if resume_path.exists():
        ckpt = torch.load(resume_path)
        model.load_state_dict(ckpt["model"])
        tracker.load_state_dict(ckpt["tracker"])
    for epoch in range(100):
        train_one_epoch(model)
        save(resume_path)
"""),
    # det143: the fix, the inner network's state saved, then loaded non-strictly into a plain model
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.DataParallel(Net().cuda())
    train(model)
    torch.save(model.module.state_dict(), "net.pth")
    plain = Net()
    plain.load_state_dict(torch.load("net.pth"), strict=False)
"""),
    # det143 tricky-correct: strict=False loads another file (ImageNet weights into a backbone), not the one
    # the wrapper's state went to
    textwrap.dedent("""
    import torch
    from torch import nn

    backbone = Backbone()
    backbone.load_state_dict(torch.load("imagenet_backbone.pth"), strict=False)
    model = nn.DataParallel(Detector(backbone)).cuda()
    train(model)
    torch.save(model.state_dict(), "detector.pth")
"""),
    # det143 tricky-correct: the non-strict load goes back into the wrapper itself (the same keys)
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.DataParallel(Net()).cuda()
    if resume:
        model.load_state_dict(torch.load("last.pth"), strict=False)
    train(model)
    torch.save(model.state_dict(), "last.pth")
"""),
    # det143 tricky-correct: the loading code strips the prefix first
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.DataParallel(Net()).cuda()
    train(model)
    torch.save(model.state_dict(), "net.pth")
    plain = Net()
    sd = {k.replace("module.", ""): v for k, v in torch.load("net.pth").items()}
    plain.load_state_dict(sd, strict=False)
"""),
]
