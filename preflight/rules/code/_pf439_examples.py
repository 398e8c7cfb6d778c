"""PF439 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torchvision
    from torch import nn


    class FrozenBackboneClassifier(pl.LightningModule):
        def __init__(self, num_classes=10):
            super().__init__()
            self.backbone = torchvision.models.resnet50(weights="IMAGENET1K_V2")
            self.backbone.requires_grad_(False)
    {init}
            self.head = nn.Linear(2048, num_classes)
    {hook}
        def forward(self, x):
            return self.head(self.backbone(x))
""")

PF439_BAD = [
    # Lightning issue 18930
    _MODULE.format(init="        self.backbone.eval()  # warning: PF439", hook=""),
]

PF439_GOOD = [
    # the fix: the hook runs after the Trainer's .train()
    _MODULE.format(init="", hook="""
    def on_train_epoch_start(self):
        self.backbone.eval()
"""),
    # eval() in __init__ and again in the hook
    _MODULE.format(init="        self.backbone.eval()", hook="""
    def on_train_epoch_start(self):
        self.backbone.eval()
"""),
    # train() overridden to keep the backbone in eval
    _MODULE.format(init="        self.backbone.eval()", hook="""
    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()
        return self
"""),
    # a plain nn.Module trained by hand keeps the mode it is given
    textwrap.dedent("""
    import torchvision
    from torch import nn


    class Frozen(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = torchvision.models.resnet50()
            self.backbone.eval()
"""),
    # Latte train_pl.py: an EMA copy put in eval() in __init__ is only updated and saved, never run
    textwrap.dedent("""
    from copy import deepcopy

    import pytorch_lightning as pl


    class LatteTrainer(pl.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.model = model
            self.ema = deepcopy(model)
            self.ema.requires_grad_(False)
            self.ema.eval()

        def training_step(self, batch, batch_idx):
            return self.model(batch).mean()

        def on_train_batch_end(self, *args):
            update_ema(self.ema, self.model)
"""),
]
