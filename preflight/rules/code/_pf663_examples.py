"""PF663 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF663_BAD = [
    # LODS issue 2: the learnable text embeddings are in no param group
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn as nn


    class LODS(pl.LightningModule):
        def __init__(self, text_emb):
            super().__init__()
            self.gaussian = GaussianModel()
            self.learnable_text_embeddings = nn.Parameter(text_emb.clone())  # warning: PF663

        def training_step(self, batch, batch_idx):
            image = render(self.gaussian, batch["camera"])
            return self.guidance.sds_loss(image, text_embeddings=self.learnable_text_embeddings)

        def configure_optimizers(self):
            g = self.gaussian
            return torch.optim.Adam([{"params": [g._xyz], "lr": 1e-4}, {"params": [g._opacity], "lr": 5e-2}])
    """),
    # a learnable temperature beside an encoder optimised on its own
    textwrap.dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Contrastive(L.LightningModule):
        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder
            self.logit_scale = nn.Parameter(torch.ones([]) * 2.659)  # warning: PF663

        def forward(self, a, b):
            return self.logit_scale.exp() * self.encoder(a) @ self.encoder(b).t()

        def training_step(self, batch, batch_idx):
            logits = self(batch["a"], batch["b"])
            return nn.functional.cross_entropy(logits, torch.arange(len(logits), device=logits.device))

        def configure_optimizers(self):
            return torch.optim.AdamW(self.encoder.parameters(), lr=1e-4)
    """),
]

PF663_GOOD = [
    # the fix: a param group for the embeddings
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn as nn


    class LODS(pl.LightningModule):
        def __init__(self, text_emb):
            super().__init__()
            self.gaussian = GaussianModel()
            self.learnable_text_embeddings = nn.Parameter(text_emb.clone())

        def training_step(self, batch, batch_idx):
            image = render(self.gaussian, batch["camera"])
            return self.guidance.sds_loss(image, text_embeddings=self.learnable_text_embeddings)

        def configure_optimizers(self):
            g = self.gaussian
            return torch.optim.Adam([{"params": [g._xyz], "lr": 1e-4},
                                     {"params": [self.learnable_text_embeddings], "lr": 1e-3}])
    """),
    # every parameter of the module
    textwrap.dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Contrastive(L.LightningModule):
        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder
            self.logit_scale = nn.Parameter(torch.ones([]) * 2.659)

        def training_step(self, batch, batch_idx):
            return self.logit_scale.exp() * self.encoder(batch).sum()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-4)
    """),
    # tricky-correct: a fixed buffer-like parameter (requires_grad=False) left out on purpose
    textwrap.dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Probe(L.LightningModule):
        def __init__(self, encoder, head):
            super().__init__()
            self.encoder, self.head = encoder, head
            self.mean = nn.Parameter(torch.zeros(3), requires_grad=False)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return nn.functional.cross_entropy(self.head(self.encoder(x - self.mean)), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.head.parameters(), lr=0.1)
    """),
    # tricky-correct: the optimizer comes from a helper that receives the module
    textwrap.dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Tuned(L.LightningModule):
        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder
            self.prompt = nn.Parameter(torch.randn(8, 512))

        def training_step(self, batch, batch_idx):
            return self.encoder(batch, prompt=self.prompt).loss

        def configure_optimizers(self):
            return build_optimizer(self, lr=1e-3)
    """),
]
