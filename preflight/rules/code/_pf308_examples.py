"""PF308 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import lightning as L
    import torch
    from torch import nn


    class DepthNet(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone
            self.head = nn.Conv2d(320, 1, 1)

        def forward(self, image):
            return self.head(self.backbone(image))


    class StageOne(L.LightningModule):
        def __init__(self, backbone):
            super().__init__()
            self.net = DepthNet(backbone){init}

        def {hook}(self):
            self.net.backbone.eval()

        def training_step(self, batch, batch_idx):
            image, depth = batch
            return nn.functional.l1_loss(self.net(image), depth)

        def configure_optimizers(self):
            return torch.optim.Adam({params}, lr=1e-3){mark}
""")

PF308_BAD = [
    # 3dvnet issue 11: the backbone "frozen" with eval() in on_train_epoch_start, all parameters optimized
    _MODULE.format(init="", hook="on_train_epoch_start", params="self.net.parameters()", mark="  # warning: PF308"),
    # the whole module's parameters, eval() at the start of fit
    _MODULE.format(init="", hook="on_train_start", params="self.parameters()", mark="  # warning: PF308"),
]

PF308_GOOD = [
    # the fix: requires_grad_(False) and only the head in the optimizer
    _MODULE.format(init="\n        self.net.backbone.requires_grad_(False)", hook="on_train_epoch_start",
                   params="self.net.head.parameters()", mark=""),
    # tricky-correct: only the head is optimized; eval() keeps the backbone's batch-norm statistics
    _MODULE.format(init="", hook="on_train_epoch_start", params="self.net.head.parameters()", mark=""),
    # tricky-correct: eval() in an evaluation hook is not a freeze
    _MODULE.format(init="", hook="on_validation_epoch_start", params="self.parameters()", mark=""),
    # tricky-correct: the backbone's output is detached in forward (another file's freeze is not seen,
    # a freeze in this one is)
    _MODULE.format(init="", hook="on_train_epoch_start", params="self.parameters()", mark="").replace(
        "return self.head(self.backbone(image))", "return self.head(self.backbone(image).detach())"),
]
