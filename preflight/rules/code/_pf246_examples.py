"""PF246 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF246`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

_ATTENTION = dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class CausalSelfAttention(nn.Module):
        def __init__(self, d_model, n_heads, context_length):
            super().__init__()
            self.n_heads = n_heads
            self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
            self.proj = nn.Linear(d_model, d_model)
            mask = {build}
            self.register_buffer("mask", mask, persistent=False)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(x).split(C, dim=2)
            q, k, v = (t.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2) for t in (q, k, v))
            out = F.scaled_dot_product_attention(q, k, v, attn_mask={use}){pin}
            return self.proj(out.transpose(1, 2).contiguous().view(B, T, C))
    """)

_FUTURE = "torch.triu(torch.ones(context_length, context_length), diagonal=1).bool()"

PF246_BAD = [
    # rasbt/LLMs-from-scratch issue 1061's shape: the masked_fill mask reused for SDPA
    _ATTENTION.format(build=_FUTURE, use="self.mask[:T, :T]", pin="  # warning: PF246"),
    # built in forward with a boolean dtype, method form of triu
    dedent("""\
        import torch
        import torch.nn.functional as F


        def attend(q, k, v):
            T = q.size(-2)
            future = torch.ones(T, T, dtype=torch.bool, device=q.device).triu(1)
            return F.scaled_dot_product_attention(q, k, v, attn_mask=future)  # warning: PF246
        """),
]

PF246_GOOD = [
    # the fix: negated at the call
    _ATTENTION.format(build=_FUTURE, use="~self.mask[:T, :T]", pin=""),
    # tricky: a lower-triangular keep mask
    _ATTENTION.format(build="torch.tril(torch.ones(context_length, context_length)).bool()",
                      use="self.mask[:T, :T]", pin=""),
    # tricky: an additive float mask, -inf above the diagonal
    _ATTENTION.format(build='torch.triu(torch.full((context_length, context_length), float("-inf")), diagonal=1)',
                      use="self.mask[:T, :T]", pin=""),
    # tricky: the future mask feeds masked_fill, SDPA gets is_causal
    dedent("""\
        import torch
        import torch.nn.functional as F


        def attend(q, k, v, manual=False):
            T = q.size(-2)
            future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=q.device), diagonal=1)
            if manual:
                scores = (q @ k.transpose(-2, -1)).masked_fill(future, float("-inf"))
                return scores.softmax(-1) @ v
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        """),
]

# tricky: a project's own attention function, for which True means "hide"
PF246_GOOD.append(dedent("""\
    import torch


    def scaled_dot_product_attention(q, k, v, attn_mask=None):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if attn_mask is not None:
            scores = scores.masked_fill(attn_mask, float("-inf"))
        return scores.softmax(-1) @ v


    def attend(q, k, v):
        T = q.size(-2)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        return scaled_dot_product_attention(q, k, v, attn_mask=future)
    """))
