"""PF150 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_RESUME = textwrap.dedent("""
    import torch
    import torch.nn as nn

    model = nn.DataParallel(build_model(args)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)
    start_epoch = 0
    if args.resume:
        checkpoint = torch.load(args.resume)
        start_epoch = checkpoint["epoch"]
        {load}{mark}
        optimizer.load_state_dict(checkpoint["optimizer"])
    for epoch in range(start_epoch, args.epochs):
        train_one_epoch(model, optimizer)
        torch.save({{"epoch": epoch + 1, "state_dict": {saved}.state_dict(),
                    "optimizer": optimizer.state_dict()}}, "checkpoint.pth.tar")
""")

PF150_BAD = [
    # OpenLDN issue 5: strict=False added to silence the missing/unexpected keys error
    _RESUME.format(load='model.load_state_dict(checkpoint["state_dict"], strict=False)', mark="  # error: PF150",
                   saved="model.module"),
    # DDP inside a main(), the state bound to a name before it is saved
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def main(rank, path):
        net = DDP(Net().to(rank), device_ids=[rank])
        if path:
            net.load_state_dict(torch.load(path, map_location="cpu"), strict=False)  # error: PF150
        for epoch in range(10):
            train(net)
            state = net.module.state_dict()
            if rank == 0:
                torch.save(state, "net.pt")
    """),
]

PF150_GOOD = [
    # the fix: loaded strictly into the inner network
    _RESUME.format(load='model.module.load_state_dict(checkpoint["state_dict"])', mark="", saved="model.module"),
    # the wrapper's own (prefixed) state is saved: the keys match
    _RESUME.format(load='model.load_state_dict(checkpoint["state_dict"], strict=False)', mark="", saved="model"),
    # strict: a mismatch raises instead of loading nothing
    _RESUME.format(load='model.load_state_dict(checkpoint["state_dict"])', mark="", saved="model.module"),
    # tricky: the script adds the prefix back before loading
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.DataParallel(Net()).cuda()
    sd = torch.load("ckpt.pt")
    sd = {"module." + k: v for k, v in sd.items()}
    model.load_state_dict(sd, strict=False)
    torch.save(model.module.state_dict(), "ckpt.pt")
    """),
    # tricky: loaded (non-strict, e.g. a pretrained backbone) before the wrapping
    textwrap.dedent("""
    import torch
    from torch import nn

    model = Net()
    model.load_state_dict(torch.load("backbone.pt"), strict=False)
    model = nn.DataParallel(model).cuda()
    train(model)
    torch.save(model.module.state_dict(), "final.pt")
    """),
    # tricky: a helper whose parameter holds whatever the caller passes
    textwrap.dedent("""
    import torch
    from torch import nn


    def load_pretrained(model, path):
        model.load_state_dict(torch.load(path), strict=False)


    def main():
        model = nn.DataParallel(Net()).cuda()
        load_pretrained(model.module, "pre.pt")
        train(model)
        torch.save(model.module.state_dict(), "final.pt")
    """),
]
