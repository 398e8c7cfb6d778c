"""PF254 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # DALLE-pytorch issue 57's shape
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class DALLE(nn.Module):
        def __init__(self, dim=512, num_text_tokens=10000, pad_id=0):
            super().__init__()
            self.to_logits = nn.Linear(dim, num_text_tokens)
            self.ignore_index = pad_id

        def forward(self, h, labels):
            logits = self.to_logits(h)
            return F.cross_entropy(logits.transpose(1, 2), labels)  # warning: PF254
"""),
    # the module form, built in __init__
    textwrap.dedent("""
    import torch.nn as nn


    class SegLoss(nn.Module):
        def __init__(self, ignore_label=255):
            super().__init__()
            self.ignore_label = ignore_label
            self.ce = nn.CrossEntropyLoss()  # warning: PF254

        def forward(self, logits, target):
            return self.ce(logits, target)
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class DALLE(nn.Module):
        def __init__(self, pad_id=0):
            super().__init__()
            self.ignore_index = pad_id

        def forward(self, logits, labels):
            return F.cross_entropy(logits.transpose(1, 2), labels, ignore_index=self.ignore_index)
"""),
    # tricky: the attribute masks the labels by hand before a default-ignore loss
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Head(nn.Module):
        def __init__(self, ignore_index=0):
            super().__init__()
            self.ignore_index = ignore_index

        def forward(self, logits, labels):
            labels = labels.masked_fill(labels == self.ignore_index, -100)
            return F.cross_entropy(logits, labels)
"""),
    # tricky: the constructor argument goes to the loss directly; another object reads the attribute
    textwrap.dedent("""
    import torch.nn as nn


    class LabelSmoothing(nn.Module):
        def __init__(self, ignore_index=-100):
            super().__init__()
            self.ignore_index = ignore_index
            self.nll = nn.NLLLoss(ignore_index=ignore_index)


    class Seq(nn.Module):
        def __init__(self, pad=1):
            super().__init__()
            self.ignore_idx = pad

        def forward(self, logits, y):
            return nn.functional.cross_entropy(logits, y)


    def loss_of(model, logits, y):
        return nn.functional.cross_entropy(logits, y, ignore_index=model.ignore_idx)
"""),
    # tricky (torchtune's LinearGRPOLoss shape): per-position losses masked by a padding mask afterwards
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class ChunkedLoss(nn.Module):
        def __init__(self, ignore_index=-100):
            super().__init__()
            self.ignore_index = ignore_index

        def forward(self, logits, targets, padding_mask):
            per_token = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="none")
            return (per_token.view_as(targets) * padding_mask).sum() / padding_mask.sum()
"""),
]
