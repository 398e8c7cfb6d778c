"""PF307 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCHED_MODULE = textwrap.dedent("""
    # --- module.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class LitNet(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self.net(x), y))

        def configure_optimizers(self):
            optimizer = torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)
            scheduler = torch.optim.lr_scheduler.{scheduler}
            return {ret}
""")

_SCHED_TRAIN = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl

    from module import LitNet

    trainer = pl.Trainer(gpus=1, max_epochs=100, check_val_every_n_epoch={every}){mark}
    trainer.fit(LitNet(build_net()), train_loader, val_loader)
""")


def _sched(version: str, every: str, mark: str, scheduler: str = "StepLR(optimizer, step_size=30, gamma=0.1)",
           ret: str = "[optimizer], [scheduler]") -> str:
    return _SCHED_MODULE.format(scheduler=scheduler, ret=ret) + _SCHED_TRAIN.format(version=version, every=every,
                                                                                     mark=mark)


_ES = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- runner.py
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import EarlyStopping
    from torch.nn import functional as F


    class Probe(pl.LightningModule):
        def __init__(self, head):
            super().__init__()
            self.head = head

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.head(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self.head(x), y))

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)


    early_stopping = EarlyStopping(monitor="val_loss", patience=3{extra}){mark}
    trainer = pl.Trainer(gpus=1, max_epochs=500, check_val_every_n_epoch=10, callbacks=[early_stopping])
    trainer.fit(Probe(make_head()), train_loader, valid_loader)
""")

_DS = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl
    import torch
    from transformers import get_linear_schedule_with_warmup


    class LitLM(pl.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-4)
            scheduler = get_linear_schedule_with_warmup(optimizer, 2000, 50000)
            return {{"optimizer": optimizer, "lr_scheduler": {{"scheduler": scheduler, "interval": "step"}}}}


    trainer = pl.Trainer(gpus=4, strategy="deepspeed_stage_2", precision=16, max_steps=50000)
    trainer.fit(LitLM(load_model()), train_loader, ckpt_path=args.resume){mark}
""")

PF307_BAD = [
    # Lightning issue 7737: StepLR with check_val_every_n_epoch=10 on 1.3.1
    _sched("1.3.1", "10", "  # error: PF307"),
    # Lightning issue 9151: EarlyStopping on 1.4.4 with validation every 10 epochs
    _ES.format(version="1.4.4", extra="", mark="  # error: PF307"),
    # Lightning PR 11322: DeepSpeed resume on 1.5.7 restarts the warmup
    _DS.format(version="1.5.7", mark="  # error: PF307"),
]

PF307_GOOD = [
    # the fixes: the releases with the fixes
    _sched("1.4.0", "10", ""),
    _ES.format(version="1.4.5", extra="", mark=""),
    _DS.format(version="1.5.9", mark=""),
    # the workaround on the pinned release
    _ES.format(version="1.4.4", extra=", check_on_train_epoch_end=False", mark=""),
    # tricky-correct: ReduceLROnPlateau is meant to follow validation
    _sched("1.3.1", "10", "", scheduler="ReduceLROnPlateau(optimizer, patience=3)",
           ret='{"optimizer": optimizer, "lr_scheduler": scheduler, "monitor": "val_loss"}'),
    # tricky-correct: validation every epoch on the old release
    _sched("1.3.1", "1", ""),
]
