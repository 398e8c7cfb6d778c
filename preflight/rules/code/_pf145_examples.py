"""PF145 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import torch
    from torch import nn


    class MaskedBCE(nn.Module):
        def __init__(self):
            super().__init__()
            self.bce = nn.BCEWithLogitsLoss({reduction}){mark}

        def forward(self, logits, gt, mask):
            loss = self.bce(logits, gt)
            loss = torch.sum(loss.mul(mask)) / torch.sum(mask)
            return loss
""")

_FUNCTIONAL = textwrap.dedent("""
    import torch.nn.functional as F


    def masked_mse(pred, target, batch):
        per_pixel = F.mse_loss(pred, target{reduction}){mark}
        valid = per_pixel * batch["valid_mask"].float().unsqueeze(1)
        return valid.sum() / batch["valid_mask"].sum().clamp(min=1)
""")

_LOCAL = textwrap.dedent("""
    import torch
    from torch import nn


    def train_step(model, batch, optimizer):
        criterion = nn.CrossEntropyLoss({reduction}){mark}
        logits = model(batch["tokens"])
        token_loss = criterion(logits.transpose(1, 2), batch["labels"])
        loss = (token_loss * batch["attention_mask"]).sum() / batch["attention_mask"].sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
""")

PF145_BAD = [
    # OpenJERE issue 6: MaskedBCE with the default mean reduction
    _MODULE.format(reduction="", mark="  # error: PF145"),
    # a functional loss without reduction, the mask cast and reshaped, the product bound then summed
    _FUNCTIONAL.format(reduction="", mark="  # error: PF145"),
    # a local criterion with reduction="sum": the masked sum is the whole sum times a constant
    _LOCAL.format(reduction='reduction="sum"', mark="  # error: PF145"),
]

PF145_GOOD = [
    # the fix: element-wise loss, then masked
    _MODULE.format(reduction='reduction="none"', mark=""),
    _FUNCTIONAL.format(reduction=', reduction="none"', mark=""),
    _LOCAL.format(reduction='reduction="none"', mark=""),
    # tricky-correct: the reduction is a parameter preflight cannot read
    _MODULE.format(reduction="reduction=self.reduction", mark=""),
    # tricky-correct: the mask goes into the loss as weight, and the scalar is scaled by a computed ratio
    textwrap.dedent("""
    import torch.nn.functional as F


    def masked_bce(logits, y, mask):
        loss = F.binary_cross_entropy_with_logits(logits, y, weight=mask)
        return loss * mask.numel() / mask.sum()
    """),
    # tricky-correct: the mask is applied to the inputs, then the mean loss is returned
    textwrap.dedent("""
    from torch import nn


    class MaskedL1(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = nn.L1Loss(reduction="sum")

        def forward(self, pred, target, mask):
            loss = self.l1(pred * mask, target * mask)
            return loss / mask.sum().clamp(min=1)
    """),
    # tricky-correct: the criterion is rebound to an element-wise loss elsewhere in the file
    textwrap.dedent("""
    import torch
    from torch import nn


    class Head(nn.Module):
        def __init__(self, masked):
            super().__init__()
            self.crit = nn.BCEWithLogitsLoss()
            if masked:
                self.crit = nn.BCEWithLogitsLoss(reduction="none")

        def forward(self, logits, gt, mask):
            loss = self.crit(logits, gt)
            return torch.sum(loss * mask) / torch.sum(mask)
    """),
    # tricky-correct: the loss name is rebound to an element-wise loss before it is masked
    textwrap.dedent("""
    import torch.nn.functional as F


    def masked_loss(pred, target, mask):
        loss = F.mse_loss(pred, target)
        log_scalar(loss)
        loss = F.mse_loss(pred, target, reduction="none")
        return (loss * mask).sum() / mask.sum()
    """),
]
