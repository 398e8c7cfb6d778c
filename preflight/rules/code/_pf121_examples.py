"""PF121 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch-lightning#3674 shape: a one-hot table built by a helper method
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch import nn


    class SGNLite(pl.LightningModule):
        def __init__(self, seg=20, num_joints=25):
            super().__init__()
            self.tem = self.one_hot(seg, num_joints).permute(2, 0, 1)  # warning: PF121
            self.frame_embed = nn.Linear(seg, 64)

        def one_hot(self, spa, tem):
            y = torch.arange(spa).unsqueeze(-1)
            y_onehot = torch.zeros(spa, spa)
            y_onehot.scatter_(1, y, 1)
            return y_onehot.unsqueeze(0).repeat(tem, 1, 1)

        def forward(self, x):
            tem = self.tem.unsqueeze(0).expand(x.size(0), -1, -1, -1)
            return self.frame_embed(tem) + x
"""),
    # a causal mask and position ids built directly with torch factories
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, n_ctx, dim):
            super().__init__()
            self.proj = nn.Linear(dim, dim)
            self.mask = torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx)  # warning: PF121
            self.pos = torch.arange(n_ctx)  # warning: PF121

        def forward(self, att, x):
            att = att.masked_fill(self.mask == 0, float("-inf"))
            return self.proj(x) + self.pos
"""),
]

GOOD_EXAMPLES = [
    # the fix: registered buffers, and an nn.Parameter
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, n_ctx, dim):
            super().__init__()
            self.register_buffer("mask", torch.tril(torch.ones(n_ctx, n_ctx)))
            self.register_buffer("pos", torch.arange(n_ctx), persistent=False)
            self.scale = nn.Parameter(torch.ones(dim), requires_grad=False)

        def forward(self, att, x):
            return att.masked_fill(self.mask == 0, float("-inf")) + x * self.scale + self.pos
"""),
    # tricky-correct: placed at use, built on a device, a 0-dim scalar, a shape read, an index,
    # re-bound in another method, not used in forward, wrapped into a Parameter afterwards
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Head(nn.Module):
        def __init__(self, dim, device):
            super().__init__()
            self.freqs = torch.arange(dim).float()
            self.table = torch.zeros(dim, device=device)
            self.temperature = torch.tensor(0.07)
            self.shape_probe = torch.empty(3, dim)
            self.keep = torch.arange(dim)
            self.cache = torch.zeros(dim)
            self.unused = torch.ones(dim)
            self.window = torch.ones(dim)
            self.causal = torch.tril(torch.ones(1, dim, dim))
            self.weight = torch.randn(dim, dim)
            self.weight = nn.Parameter(self.weight)

        def reset(self):
            self.cache = torch.zeros_like(self.cache)

        def forward(self, x):
            h = x * self.freqs.to(x.device) + self.table
            h = h / self.temperature
            h = h[..., self.keep] + self.cache
            h = h * (self.window ** 2).to(h.device) + self.causal[:, : h.size(1)].to(h.device).sum()
            return h.view(-1, self.shape_probe.shape[-1]) @ self.weight
"""),
    # tricky-correct: a module that moves its tensors itself, and a plain class that is no Module
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Rotary(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))

        def _apply(self, fn, recurse=True):
            self.inv_freq = fn(self.inv_freq)
            return super()._apply(fn, recurse)

        def forward(self, t):
            return torch.outer(t, self.inv_freq)


    class Stats:
        def __init__(self, n):
            self.total = torch.zeros(n)

        def forward(self, x):
            return self.total + x
"""),
    # tricky-correct (a detector's shape): the head keeps its per-level strides as a plain tensor,
    # and the network that owns the head overrides `_apply` to move them with every `.to()`/`.half()`
    textwrap.dedent("""
    import torch
    from torch import nn


    class Head(nn.Module):
        def __init__(self, channels, levels=3):
            super().__init__()
            self.stride = torch.zeros(levels)
            self.convs = nn.ModuleList(nn.Conv2d(c, 6, 1) for c in channels)

        def forward(self, feats):
            return [conv(f) * self.stride[i] for i, (conv, f) in enumerate(zip(self.convs, feats))]


    class Network(nn.Module):
        def __init__(self, backbone, channels):
            super().__init__()
            self.backbone = backbone
            self.layers = nn.Sequential(Head(channels))

        def forward(self, x):
            return self.layers[-1](self.backbone(x))

        def _apply(self, fn):
            self = super()._apply(fn)
            head = self.layers[-1]
            head.stride = fn(head.stride)
            return self
"""),
]
