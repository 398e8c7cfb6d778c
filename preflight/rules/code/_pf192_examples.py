"""PF192 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch issue 94828: a learned offset moved to the GPU after wrapping it
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class OffsetRegressor(nn.Module):
        def __init__(self, n_features=10, n_out=20):
            super().__init__()
            self.offset = torch.nn.Parameter(torch.rand(n_features)).cuda()  # warning: PF192
            self.linear = nn.Linear(n_features, n_out)

        def forward(self, x):
            return self.linear(self.offset + x)
"""),
    # two scalars of a bias-correction layer, one moved with .to(device), one with .half()
    textwrap.dedent("""
    import torch
    from torch import nn
    from torch.nn import Parameter


    class BiasLayer(nn.Module):
        def __init__(self, device):
            super().__init__()
            self.alpha = nn.Parameter(torch.ones(1)).to(device)  # warning: PF192
            self.beta = Parameter(torch.zeros(1)).half().requires_grad_()  # warning: PF192

        def forward(self, x):
            return self.alpha * x + self.beta
"""),
]

GOOD_EXAMPLES = [
    # the fix: the Parameter built on the CPU, the whole module moved
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class OffsetRegressor(nn.Module):
        def __init__(self, n_features=10, n_out=20):
            super().__init__()
            self.offset = torch.nn.Parameter(torch.rand(n_features))
            self.linear = nn.Linear(n_features, n_out)

        def forward(self, x):
            return self.linear(self.offset + x)


    model = OffsetRegressor().cuda()
"""),
    # tricky: the data moved inside the Parameter, a factory with device=, and moves that return the
    # Parameter itself (.to("cpu"), .float())
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Scale(nn.Module):
        def __init__(self, device):
            super().__init__()
            self.a = nn.Parameter(torch.ones(1).cuda())
            self.b = nn.Parameter(torch.zeros(4, device=device))
            self.c = nn.Parameter(torch.zeros(4)).to("cpu")
            self.d = nn.Parameter(torch.zeros(4)).float()

        def forward(self, x):
            return self.a * x + self.b + self.c + self.d
"""),
    # tricky: a target network's scalars updated by hand through .data (no optimizer trains them)
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class TargetHead(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(1)).cuda()

        @torch.no_grad()
        def update(self, online, decay=0.01):
            self.weight.data = self.weight.data * (1 - decay) + online.weight.data * decay
"""),
    # tricky: frozen positions restored from a checkpoint (requires_grad=False): a constant, nothing to train
    textwrap.dedent("""
    import torch.nn as nn


    class Grid(nn.Module):
        def __init__(self, ms_in, ns_in, device):
            super().__init__()
            self.ms_in = nn.Parameter(ms_in, requires_grad=False).to(device)
            self.ns_in = nn.Parameter(ns_in, False).to(device)

        def forward(self, x):
            return x[:, self.ms_in.long(), self.ns_in.long()]
"""),
]
