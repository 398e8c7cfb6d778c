"""PF1091 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch issue 1020: attention pooling over an LSTM's (batch, time, 1) scores without dim
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class AttnClassifier(nn.Module):
        def __init__(self, vocab_size=30000, emb=256, hidden=256, n_classes=4):
            super().__init__()
            self.embed = nn.Embedding(vocab_size, emb, padding_idx=0)
            self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
            self.attn = nn.Linear(2 * hidden, 1)
            self.fc = nn.Linear(2 * hidden, n_classes)

        def forward(self, tokens):
            h, _ = self.lstm(self.embed(tokens))
            scores = self.attn(torch.tanh(h))
            scores = scores.masked_fill((tokens == 0).unsqueeze(-1), -1e9)
            weights = F.softmax(scores)  # warning: PF1091
            pooled = (weights * h).sum(dim=1)
            return self.fc(pooled)
"""),
    # an nn.Softmax() without dim applied to a (batch, query, key) attention matrix from bmm
    textwrap.dedent("""
    import math

    import torch
    import torch.nn as nn


    class DotAttention(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.d = d
            self.softmax = nn.Softmax()

        def forward(self, q, k, v):
            scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d)
            attn = self.softmax(scores)  # warning: PF1091
            return torch.bmm(attn, v)
"""),
]

GOOD_EXAMPLES = [
    # the fix: the time axis is named
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class AttnPool(nn.Module):
        def __init__(self, hidden=256):
            super().__init__()
            self.lstm = nn.LSTM(128, hidden, batch_first=True)
            self.attn = nn.Linear(hidden, 1)

        def forward(self, x):
            h, _ = self.lstm(x)
            scores = self.attn(torch.tanh(h))
            weights = F.softmax(scores, dim=1)
            return (weights * h).sum(dim=1)
"""),
    # tricky-correct: bmm, then squeeze to (batch, length): 2-D, the implicit dim 1 is the length
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def attend(c, memory):
        alpha = F.softmax(torch.bmm(c.transpose(1, 2), memory).squeeze(1))
        return torch.sum(alpha.unsqueeze(1) * memory, dim=2)
"""),
    # tricky-correct: 2-D classifier logits without dim (implicit dim 1, deprecated but right)
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)

        def forward(self, x):
            return F.log_softmax(self.fc(x.view(-1, 784)))
"""),
    # tricky-correct: the dim is passed positionally
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def attention(q, k, v):
        beta = F.softmax(torch.bmm(q.transpose(1, 2), k), -1)
        return torch.bmm(v, beta.transpose(1, 2))
"""),
    # tricky-correct: 4-D segmentation logits, the implicit dim 1 is the class channel
    textwrap.dedent("""
    import torch.nn.functional as F


    def probs(logits, b, c, h, w):
        return F.softmax(logits.view(b, c, h, w))
"""),
]

BAD_EXAMPLES.append(
    # an inline nn.Softmax() on a (batch, source, query) bmm result
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def attend(query, context):
        attn = torch.bmm(context, torch.transpose(query, 1, 2))
        attn = nn.Softmax()(attn)  # warning: PF1091
        return torch.bmm(attn.transpose(1, 2), context)
"""),
)

GOOD_EXAMPLES.append(
    # tricky-correct (microsoft/GLIP fuse_helper.py): the bmm result is viewed to 2-D before the softmax
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def attend(query, context, batch_size, source_len, query_len):
        attn = torch.bmm(context, torch.transpose(query, 1, 2))
        attn = attn.view(batch_size * source_len, query_len)
        attn = nn.Softmax()(attn)
        return attn.view(batch_size, source_len, query_len)
"""),
)
