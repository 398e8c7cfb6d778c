"""PF622 examples (projects: `# --- path` sections): bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF622_BAD = [
    # the SwAV shape: the module keeps the standalone package, the script moved to the unified one
    textwrap.dedent("""
    # --- ssl/swav.py
    import pytorch_lightning as pl
    import torch


    class SwAV(pl.LightningModule):  # error: PF622
        def __init__(self, lr=0.6):
            super().__init__()
            self.net = torch.nn.Linear(8, 8)

        def training_step(self, batch, batch_idx):
            return self.net(batch).sum()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.6)
    # --- main_pretrain.py
    import lightning.pytorch as pl

    from ssl.swav import SwAV


    def main(dm):
        model = SwAV(lr=0.6)
        trainer = pl.Trainer(max_epochs=400, accelerator="gpu", devices=4)
        trainer.fit(model, datamodule=dm)
"""),
    # the reverse, through a project base class, with the Trainer called inline
    textwrap.dedent("""
    # --- models.py
    from lightning import LightningModule


    class Base(LightningModule):  # error: PF622
        pass


    class Classifier(Base):
        pass
    # --- train.py
    from pytorch_lightning import Trainer

    from models import Classifier

    Trainer(max_epochs=3).fit(Classifier())
"""),
]

PF622_GOOD = [
    # the fix: one package everywhere
    textwrap.dedent("""
    # --- ssl/swav.py
    import lightning.pytorch as pl
    import torch


    class SwAV(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return batch.sum()
    # --- main_pretrain.py
    import lightning.pytorch as pl

    from ssl.swav import SwAV


    def main(dm):
        model = SwAV()
        trainer = pl.Trainer(max_epochs=400)
        trainer.fit(model, datamodule=dm)
"""),
    # tricky-correct: `import lightning as L` and `lightning.pytorch` are the same package, and a
    # pytorch_lightning module in the project that is fit by a pytorch_lightning Trainer elsewhere
    textwrap.dedent("""
    # --- model.py
    import lightning as L
    import pytorch_lightning


    class Net(L.LightningModule):
        pass


    class Legacy(pytorch_lightning.LightningModule):
        pass
    # --- train.py
    from lightning.pytorch import Trainer
    import pytorch_lightning as pl

    from model import Legacy, Net

    net = Net()
    Trainer(max_epochs=1).fit(net)
    old = pl.Trainer(max_epochs=1)
    old.fit(Legacy())
"""),
]
