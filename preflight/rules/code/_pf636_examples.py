"""PF636 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF636_BAD = (
    # pytorch issue 86590's shape: a frozen ResNet with a new head, trained in train mode
    textwrap.dedent("""\
    import torch
    import torchvision

    net = torchvision.models.resnet18(weights="IMAGENET1K_V1")
    net.requires_grad_(False)
    net.fc = torch.nn.Linear(512, 5)
    opt = torch.optim.Adam(net.fc.parameters(), lr=1e-3)
    for epoch in range(10):
        net.train()  # warning: PF636
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
"""),
)

PF636_GOOD = (
    # the fix: the backbone stays in eval mode, only the head trains in train mode
    textwrap.dedent("""\
    import torch
    import torchvision

    net = torchvision.models.resnet18(weights="IMAGENET1K_V1")
    net.requires_grad_(False)
    net.fc = torch.nn.Linear(512, 5)
    opt = torch.optim.Adam(net.fc.parameters(), lr=1e-3)
    for epoch in range(10):
        net.eval()
        net.fc.train()
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
"""),
    # tricky-correct: train() then the BatchNorm layers put back in eval mode by apply()
    textwrap.dedent("""\
    import torch
    import torchvision


    def bn_eval(m):
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


    net = torchvision.models.resnet50(weights="DEFAULT")
    for p in net.parameters():
        p.requires_grad = False
    net.fc = torch.nn.Linear(2048, 10)
    opt = torch.optim.SGD(net.fc.parameters(), lr=0.1)
    for epoch in range(10):
        net.train()
        net.apply(bn_eval)
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
"""),
    # tricky-correct: a frozen ViT has no BatchNorm: train() only switches dropout
    textwrap.dedent("""\
    import torch
    import torchvision

    net = torchvision.models.vit_b_16(weights="DEFAULT")
    net.requires_grad_(False)
    net.heads = torch.nn.Linear(768, 10)
    opt = torch.optim.SGD(net.heads.parameters(), lr=0.1)
    net.train()
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
"""),
)
