"""PF328 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    import os

    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint
    from pytorch_lightning.loggers import WandbLogger

    logger = WandbLogger(project="depth")
    checkpoint = ModelCheckpoint(
        monitor="val_loss",
        save_top_k=3,
        dirpath={dirpath},{pin}
    )
    trainer = pl.Trainer(accelerator="gpu", {devices}, max_epochs=100, logger=logger, callbacks=[checkpoint])
    trainer.fit(model, train, val)
""")

PF328_BAD = [
    # held-out-40 (Lightning issue 5319): the WandB run directory, rank 0 only, under 4-GPU DDP
    _SCRIPT.format(dirpath='os.path.join(logger.experiment.dir, "checkpoints")', pin="  # warning: PF328",
                   devices='devices=4, strategy="ddp"'),
    # a DDP strategy object on every visible GPU
    _SCRIPT.format(dirpath="logger.experiment.dir", pin="  # warning: PF328",
                   devices='devices="auto", strategy=DDPStrategy(find_unused_parameters=False)').replace(
        "from pytorch_lightning.loggers import WandbLogger",
        "from pytorch_lightning.loggers import WandbLogger\nfrom pytorch_lightning.strategies import DDPStrategy"),
    # wandb.run is None on the other ranks
    _SCRIPT.format(dirpath='f"{wandb.run.dir}/ckpt"', pin="  # warning: PF328", devices="devices=-1"),
]

PF328_GOOD = [
    # held-out-40's fix: a fixed path on every rank
    _SCRIPT.format(dirpath='os.path.join("checkpoints", "depth")', pin="", devices='devices=4, strategy="ddp"'),
    # tricky-correct: one process, the experiment exists
    _SCRIPT.format(dirpath='os.path.join(logger.experiment.dir, "checkpoints")', pin="", devices="devices=1"),
    # tricky-correct: the logger's save_dir is a constructor field every rank has
    _SCRIPT.format(dirpath='os.path.join(logger.save_dir, "checkpoints")', pin="",
                   devices='devices=4, strategy="ddp"'),
]
