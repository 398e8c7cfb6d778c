"""PF626 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# lightning-hydra-template issue 206's shape: an experiment limits training to 10% of an epoch of 7 batches
_HYDRA = dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="train")
    def main(cfg):
        trainer = instantiate(cfg.trainer)
        trainer.fit(model=instantiate(cfg.model), datamodule=instantiate(cfg.datamodule))


    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - _self_
      - experiment: tiny
    trainer:
      _target_: pytorch_lightning.Trainer
      max_epochs: 10
    model:
      _target_: models.Net
    # --- configs/experiment/tiny.yaml
    # @package _global_
    datamodule:
      batch_size: {batch}
      train_samples: 1600
    trainer:
      max_epochs: 30
      limit_train_batches: {limit}{pin}
    # --- requirements.txt
    pytorch-lightning==1.5.10
    # --- launch
    python train.py experiment=tiny
    """)

# MEDS_EIC_AR issue 62's shape: an integer val_check_interval longer than the epoch (391 batches)
_INTERVAL = dedent("""
    # --- pretrain.py
    import hydra
    import lightning as L
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="config")
    def main(cfg):
        trainer = L.Trainer(**cfg.trainer)
        trainer.fit(instantiate(cfg.model), datamodule=instantiate(cfg.data))


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    model:
      _target_: models.Net
    data:
      batch_size: 512
      max_train_samples: 200000
    trainer:
      max_steps: 100000
      val_check_interval: {interval}{pin}{extra}
    # --- launch
    python pretrain.py
    """)

# the same with the configs a script opens itself (yaml.safe_load), the trainer's arguments a whole file
_PLAIN = dedent("""
    # --- pretrain.py
    import lightning as L
    import yaml


    def load(path):
        with open(path) as f:
            return yaml.safe_load(f)


    trainer = L.Trainer(**load("configs/trainer.yaml"))
    data = load("configs/data.yaml")
    trainer.fit(build_model(), train_dataloaders=build_loader(data))
    # --- configs/trainer.yaml
    accelerator: gpu
    max_steps: 100000
    val_check_interval: 1000{pin}{extra}
    # --- configs/data.yaml
    batch_size: 512
    max_train_samples: 200000
    # --- launch
    python pretrain.py
    """)

PF626_BAD = [
    _HYDRA.format(batch=256, limit=0.1, pin="  # error: PF626"),
    _INTERVAL.format(interval=1000, pin="  # error: PF626", extra=""),
    _PLAIN.format(pin="  # error: PF626", extra=""),
]

PF626_GOOD = [
    # the fixes: no limit; validation every 1000 global steps
    _HYDRA.format(batch=256, limit=1.0, pin=""),
    _INTERVAL.format(interval=1000, pin="", extra="\n  check_val_every_n_epoch: null"),
    # tricky: the same fraction of a larger epoch (50 batches: 5 of them)
    _HYDRA.format(batch=32, limit=0.1, pin=""),
    # tricky: an integer limit; an interval within the epoch
    _HYDRA.format(batch=256, limit=3, pin=""),
    _INTERVAL.format(interval=300, pin="", extra=""),
    _PLAIN.format(pin="", extra="\ncheck_val_every_n_epoch: null"),
]


# facebookresearch/neuroai PR 140: 96 samples at batch size 32 (3 batches per epoch), log_every_n_steps=50 and early
# stopping: the run can stop before Lightning writes its first step metrics
_PROBE = dedent("""
    # --- run_probe.py
    import json

    import lightning as L
    from lightning.pytorch.callbacks import EarlyStopping
    from torch.utils.data import DataLoader, Subset

    from probe_data import BrainDataset
    from probe_module import LinearProbe


    def main():
        cfg = json.load(open("probe.json"))
        train_ds = Subset(BrainDataset(cfg["data_dir"]), range(cfg["max_train_samples"]))
        train_loader = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
        trainer = L.Trainer(
            max_epochs=cfg["max_epochs"],
            callbacks=[EarlyStopping(monitor="val/loss", patience={patience})],
            log_every_n_steps={every},{pin}
        )
        trainer.fit(LinearProbe(), train_loader)


    if __name__ == "__main__":
        main()
    # --- probe.json
    {{"data_dir": "data/meg", "max_train_samples": 96, "batch_size": 32, "max_epochs": 200}}
    # --- launch
    python run_probe.py
""")
PF626_BAD += [
    _PROBE.format(patience=3, every="50", pin="  # warning: PF626"),
]
PF626_GOOD += [
    # the fix: the interval is clamped to the epoch's batches
    _PROBE.format(patience=3, every="max(1, min(50, len(train_loader)))", pin=""),
    # tricky: the interval fits in an epoch
    _PROBE.format(patience=3, every="3", pin=""),
    # tricky: longer than an epoch, but the first log (epoch 2) comes before early stopping can end the run
    _PROBE.format(patience=3, every="5", pin=""),
]

# the same in a Hydra trainer config: the interval outlasts max_epochs
_HYDRA_LOG = dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base=None, config_path="configs", config_name="train")
    def main(cfg):
        trainer = instantiate(cfg.trainer)
        trainer.fit(model=instantiate(cfg.model), datamodule=instantiate(cfg.datamodule))


    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    trainer:
      _target_: lightning.pytorch.Trainer
      max_epochs: {epochs}
      log_every_n_steps: 50{pin}
    datamodule:
      _target_: data.Probe
      batch_size: 32
      train_samples: 320
    model:
      _target_: models.Net
""")
PF626_BAD.append(_HYDRA_LOG.format(epochs=4, pin="  # warning: PF626"))
PF626_GOOD.append(_HYDRA_LOG.format(epochs=40, pin=""))  # 10 batches an epoch: first step log in epoch 5 of 40

# luxonis-train PR 46 / DeepForest issue 859: an epoch interval the run never reaches
_EPOCHS = dedent("""
    # --- train.py
    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from data import Cifar
    from model import Net

    best = ModelCheckpoint(monitor="val_acc", mode="max"{best})
    periodic = ModelCheckpoint(dirpath="snapshots", save_top_k=-1, every_n_epochs={every}{last}){pin_every}
    trainer = L.Trainer(
        max_epochs=20,{steps}
        check_val_every_n_epoch={val},{pin_val}
        callbacks=[best, periodic],
    )
    trainer.fit(Net(), datamodule=Cifar())
    # --- launch
    python train.py
""")
PF626_BAD += [
    _EPOCHS.format(best="", every=5, last="", pin_every="", steps="", val=30, pin_val="  # warning: PF626"),
    _EPOCHS.format(best="", every=50, last="", pin_every="  # warning: PF626", steps="", val=1, pin_val=""),
]
PF626_GOOD += [
    # the fixes: intervals within the run
    _EPOCHS.format(best="", every=5, last="", pin_every="", steps="", val=2, pin_val=""),
    # tricky: save_last keeps a checkpoint whatever every_n_epochs is
    _EPOCHS.format(best="", every=50, last=", save_last=True", pin_every="", steps="", val=1, pin_val=""),
    # tricky: a step budget decides the run's length
    _EPOCHS.format(best="", every=50, last="", pin_every="", steps="\n    max_steps=200_000,", val=30, pin_val=""),
]


# advimman/lama issue 159: the big-dataset recipe's val_check_interval (25000) kept for 872 images at batch size 8
# (109 batches an epoch); the config is one file the script opens itself, data and trainer nodes side by side
_LAMA = dedent("""
    # --- bin/train.py
    import argparse

    import pytorch_lightning as pl
    import yaml

    p = argparse.ArgumentParser()
    p.add_argument("--config", required=True)
    cfg = yaml.safe_load(open(p.parse_args().config))
    trainer = pl.Trainer(**cfg["trainer"])
    trainer.fit(build_model(cfg), datamodule=build_data(**cfg["data"]))
    # --- configs/training/my_dataset.yaml
    data:
      num_train_images: 872
      batch_size: 8
    trainer:
      max_epochs: 40
      check_val_every_n_epoch: 1
      val_check_interval: {interval}{pin}
    # --- launch
    python bin/train.py --config configs/training/my_dataset.yaml
    """)
PF626_BAD.append(_LAMA.format(interval=25000, pin="  # error: PF626"))
PF626_GOOD += [
    # the fix: a fraction of the epoch; tricky: an integer interval within the 109 batches
    _LAMA.format(interval=1.0, pin=""),
    _LAMA.format(interval=100, pin=""),
]
