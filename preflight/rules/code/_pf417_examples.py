"""PF417 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF417_BAD = [
    textwrap.dedent("""
    import lightning as L


    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.compute(batch)
            opt.zero_grad()
            loss.backward()  # error: PF417
            opt.step()
"""),
]

PF417_GOOD = [
    textwrap.dedent("""
    import lightning as L


    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.compute(batch)
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
"""),
    # automatic optimization: Lightning runs backward itself; a backward elsewhere is not this rule's
    textwrap.dedent("""
    import lightning as L


    class Net(L.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.compute(batch)


    def probe(model, x):
        model(x).sum().backward()
"""),
]
