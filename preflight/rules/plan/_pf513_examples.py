"""PF513 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF513_BAD = [
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    loader = instantiate(cfg.train_loader)
    # --- config.yaml
    train_loader:
      _target_: torch.utils.data.DataLoader
      batch_size: 32
      shuffle: false  # warning: PF513
"""),
    # super-gradients issue 416: a config group's loader settings omit shuffle (DataLoader's default is False)
    textwrap.dedent("""
    # --- train.py
    import hydra
    from torch.utils.data import DataLoader


    @hydra.main(config_path="conf", config_name="config", version_base="1.2")
    def main(cfg):
        train_loader = DataLoader(train_set, **cfg.dataset_params.train_dataloader_params)
        val_loader = DataLoader(val_set, **cfg.dataset_params.val_dataloader_params)
    # --- conf/config.yaml
    defaults:
      - dataset_params: imagenet
      - _self_
    # --- conf/dataset_params/imagenet.yaml
    train_dataloader_params:  # warning: PF513
      batch_size: 196
      drop_last: true
    val_dataloader_params:
      batch_size: 196
"""),
]

PF513_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    loader = instantiate(cfg.train_loader)
    # --- config.yaml
    train_loader:
      _target_: torch.utils.data.DataLoader
      batch_size: 32
      shuffle: true
    val_loader:
      _target_: torch.utils.data.DataLoader
      batch_size: 64
      shuffle: false
"""),
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    loader = instantiate(cfg.train_loader)
    # --- config.yaml
    train_loader:
      batch_size: 32
      shuffle: false
      sampler: distributed
"""),
    # the unpacked training settings shuffle; the validation ones may omit it
    textwrap.dedent("""
    # --- train.py
    import hydra
    from torch.utils.data import DataLoader


    @hydra.main(config_path="conf", config_name="config", version_base="1.2")
    def main(cfg):
        train_loader = DataLoader(train_set, **cfg.data.train)
        val_loader = DataLoader(val_set, **cfg.data.val)
        sampled = DataLoader(train_set, sampler=sampler, **cfg.data.train_sampled)
    # --- conf/config.yaml
    data:
      train:
        batch_size: 64
        shuffle: true
      val:
        batch_size: 128
      train_sampled:
        batch_size: 64
"""),
]
