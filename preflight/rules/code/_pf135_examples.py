"""PF135 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # FraunhoferIEE/curriculumagent#8's shape: the configured rate stored, a literal used
    textwrap.dedent("""
    import torch
    from lightning.pytorch import LightningModule
    from torch import nn


    class JuniorPTL(LightningModule):
        def __init__(self, action_space_size, model_config):
            super().__init__()
            self.lr = model_config.get("learning_rate", 5e-4)
            self.net = nn.Linear(model_config["input_dim"], action_space_size)

        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)  # warning: PF135
            return optimizer
"""),
    # a constructor argument stored under another name, SGD with a scheduler
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Base(pl.LightningModule):
        pass


    class Classifier(Base):
        def __init__(self, backbone, learning_rate=0.01):
            super().__init__()
            self.backbone = backbone
            self.learning_rate = learning_rate

        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)  # warning: PF135
            return [opt], [torch.optim.lr_scheduler.StepLR(opt, 30)]
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    import torch
    from lightning.pytorch import LightningModule
    from torch import nn


    class JuniorPTL(LightningModule):
        def __init__(self, action_space_size, model_config):
            super().__init__()
            self.lr = model_config.get("learning_rate", 5e-4)
            self.net = nn.Linear(model_config["input_dim"], action_space_size)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=self.lr)
"""),
    # tricky: the stored rate drives the scheduler's peak; the literal is OneCycle's starting point
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Model(pl.LightningModule):
        def __init__(self, lr):
            super().__init__()
            self.lr = lr

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-8)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=1000)
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}
"""),
    # tricky: a literal stored in __init__ (nothing configured), and a plain nn.Module
    textwrap.dedent("""
    import torch
    from lightning.pytorch import LightningModule
    from torch import nn


    class Fixed(LightningModule):
        def __init__(self):
            super().__init__()
            self.lr = 3e-4

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=3e-4)


    class Plain(nn.Module):
        def __init__(self, lr):
            super().__init__()
            self.lr = lr

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
"""),
]
