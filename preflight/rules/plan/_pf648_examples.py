"""PF648 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    # --- pretrain.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class LitAutoencoder(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            loss = F.mse_loss(self.net(batch), batch)
            self.log("train_loss", loss)
            return loss

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1.5e-4)
""")

_VALIDATES = textwrap.dedent("""
    # --- pretrain.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class LitAutoencoder(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            loss = F.mse_loss(self.net(batch), batch)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            self.log("val_loss", F.mse_loss(self.net(batch), batch))

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1.5e-4)
""")


def _train(trainer_args: str, checkpoint_args: str = 'monitor="train_loss", save_last=True',
           pin: str = "pytorch-lightning==1.7.7") -> str:
    return textwrap.dedent(f"""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from pretrain import LitAutoencoder

    checkpoint = ModelCheckpoint({checkpoint_args})
    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=400, callbacks=[checkpoint],
                         {trainer_args}
    )
    trainer.fit(LitAutoencoder(build_net()), train_loader)
    # --- requirements.txt
    {pin}
    """)


BAD_EXAMPLES = [
    # Lightning issue 15180 (1.7.7): a half-epoch validation interval on a train-only module
    _MODULE + _train("val_check_interval=0.5,  # error: PF648"),
    # any current release: validation every 5 epochs of a module that never validates
    _MODULE + _train("check_val_every_n_epoch=5,  # error: PF648", pin="lightning>=2.1"),
]

GOOD_EXAMPLES = [
    # the fix of issue 15180: no validation interval on a train-only run
    _MODULE + _train("log_every_n_steps=50,"),
    # the callback saves at the training epoch end itself
    _MODULE + _train("val_check_interval=0.5,", 'monitor="train_loss", save_on_train_epoch_end=True'),
    # tricky: a step schedule of its own
    _MODULE + _train("check_val_every_n_epoch=5,", 'every_n_train_steps=1000, save_last=True'),
    # tricky: the module validates, so the checkpoint saves after each validation run
    _VALIDATES + _train("val_check_interval=0.5,"),
    # tricky: 1.9 and later save at the epoch end when there is nothing to validate
    _MODULE + _train("val_check_interval=0.5,", pin="pytorch-lightning==1.9.5"),
]
