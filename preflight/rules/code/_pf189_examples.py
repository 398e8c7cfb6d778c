"""PF189 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch issue 1291: the three Linear layers built inside forward, the optimizer gets model.parameters()
    textwrap.dedent("""
    import torch

    D_in, H, D_out = 1000, 100, 10


    class ThreeLayerNet(torch.nn.Module):
        def __init__(self, D_in, H, D_out):
            super().__init__()
            self.sizes = (D_in, H, D_out)

        def forward(self, x):
            h_relu = torch.nn.Linear(D_in, H)(x).clamp(min=0)  # warning: PF189
            h_relu = torch.nn.Linear(H, H)(h_relu).clamp(min=0)
            return torch.nn.Linear(H, D_out)(h_relu)


    model = ThreeLayerNet(D_in, H, D_out)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
"""),
    # graykode/nlp-tutorial issue 29: the attention output projection built (and moved) inside forward
    textwrap.dedent("""
    import torch.nn as nn


    class MultiHeadAttention(nn.Module):
        def __init__(self, d_model, n_heads, d_k):
            super().__init__()
            self.n_heads, self.d_k, self.d_model = n_heads, d_k, d_model
            self.W_Q = nn.Linear(d_model, d_k * n_heads)

        def forward(self, Q, attn):
            context = self.W_Q(Q) @ attn
            out = nn.Linear(self.n_heads * self.d_k, self.d_model).cuda()(context)  # warning: PF189
            return nn.LayerNorm(self.d_model).cuda()(out + Q)
"""),
    # a recurrent layer bound to a local name and used once per call
    textwrap.dedent("""
    from torch import nn


    class Encoder(nn.Module):
        def __init__(self, vocab, dim):
            super().__init__()
            self.emb = nn.Embedding(vocab, dim)

        def forward(self, tokens):
            rnn = nn.GRU(self.emb.embedding_dim, 128, batch_first=True)  # warning: PF189
            out, _ = rnn(self.emb(tokens))
            return out[:, -1]
"""),
    # wangyida/softpool issue 11: convolutions built (and moved to the GPU) in forward, never in the checkpoint
    textwrap.dedent("""
    import torch.nn as nn


    class SoftPool(nn.Module):
        def __init__(self, regions=16):
            super().__init__()
            self.regions = regions

        def forward(self, x):
            feat = x.shape[1]
            conv2d_1 = nn.Conv2d(feat, feat, kernel_size=(1, 3), stride=(1, 1)).cuda()  # warning: PF189
            conv2d_2 = nn.Conv2d(feat, feat, kernel_size=(self.regions, 1)).cuda()
            return conv2d_2(conv2d_1(x))
"""),
]

GOOD_EXAMPLES = [
    # the fix: layers created in __init__
    textwrap.dedent("""
    import torch


    class ThreeLayerNet(torch.nn.Module):
        def __init__(self, D_in, H, D_out):
            super().__init__()
            self.linear1 = torch.nn.Linear(D_in, H)
            self.linear2 = torch.nn.Linear(H, D_out)

        def forward(self, x):
            return self.linear2(self.linear1(x).clamp(min=0))
"""),
    # tricky: a lazy build stored on self at the first call, a layer registered with add_module, layers without
    # weights (ReLU, Dropout) and a normalisation layer, and the functional API
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Head(nn.Module):
        def __init__(self, n_out):
            super().__init__()
            self.n_out = n_out
            self.fc = None

        def forward(self, x):
            if self.fc is None:
                self.fc = nn.Linear(x.shape[-1], self.n_out).to(x.device)
            if not hasattr(self, "gate"):
                gate = nn.Linear(x.shape[-1], 1).to(x.device)
                self.add_module("gate", gate)
            h = nn.Dropout(0.1)(nn.ReLU()(self.fc(x)))
            h = nn.LayerNorm(h.shape[-1], elementwise_affine=False)(h)
            return F.linear(h, self.fc.weight) * self.gate(x)
"""),
    # tricky: an autograd Function's forward and a builder class without a base
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Clip(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clamp(-1, 1)


    class HeadFactory:
        def forward(self, dim, n):
            return nn.Linear(dim, n)
"""),
    # tricky: a lazy build registered with setattr, and a one-off convolution that runs with the module's own
    # registered weight and bias (copied in before the call)
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Adaptive(nn.Module):
        def __init__(self, c_in, c_out):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(c_out, c_in, 3, 3))
            self.bias = nn.Parameter(torch.zeros(c_out))

        def forward(self, x, head="cls"):
            if not hasattr(self, head):
                setattr(self, head, nn.Linear(self.bias.numel(), 10))
            conv = nn.Conv2d(self.weight.shape[1], self.weight.shape[0], 3, padding=1)
            conv.weight = self.weight
            conv.bias = self.bias
            return getattr(self, head)(conv(x).mean((2, 3)))
"""),
]
