"""PF512 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF512_BAD = [
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    optimizer = instantiate(cfg.optimizer)(params=model.parameters())
    # --- config.yaml
    optimizer:
      _target_: torch.optim.Adam  # error: PF512
      lr: 0.001
"""),
    # nested in a model node that is instantiated recursively: built before the module can
    # pass its parameters (the module's own instantiate call does not help)
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    model = instantiate(cfg.model)
    # --- model.py
    from hydra.utils import instantiate


    class Lit:
        def configure_optimizers(self):
            return instantiate(self.hparams.optimizer, params=self.parameters())
    # --- config.yaml
    model:
      _target_: model.Lit
      optimizer:
        _target_: torch.optim.Adam  # error: PF512
        lr: 0.001
"""),
    # Hydra issue 1413: a nested config group (conf/model/optimizer/) selected by the defaults
    # list of a model node that train.py instantiates recursively
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="train", version_base="1.1")
    def main(cfg):
        model = instantiate(cfg.model)
    # --- conf/train.yaml
    defaults:
      - model: crab
      - _self_
    seed: 42
    # --- conf/model/crab.yaml
    defaults:
      - optimizer: adam
    _target_: mm.models.Crab
    # --- conf/model/optimizer/adam.yaml
    _target_: torch.optim.Adam  # error: PF512
    lr: 0.001
    # --- mm/models.py
    from hydra.utils import instantiate


    class Crab:
        def __init__(self, optimizer):
            self.optimizer_cfg = optimizer

        def configure_optimizers(self):
            return instantiate(self.optimizer_cfg, params=self.parameters())
"""),
]

PF512_GOOD = [
    # the same with `_recursive_=False`: the module builds the node itself with its parameters
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    model = instantiate(cfg.model, _recursive_=False)
    # --- model.py
    from hydra.utils import instantiate


    class Lit:
        def configure_optimizers(self):
            return instantiate(self.hparams.optimizer, params=self.parameters())
    # --- config.yaml
    model:
      _target_: model.Lit
      optimizer:
        _target_: torch.optim.Adam
        lr: 0.001
"""),
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    optimizer = instantiate(cfg.optimizer)(params=model.parameters())
    # --- config.yaml
    optimizer:
      _target_: torch.optim.Adam
      _partial_: true
      lr: 0.001
"""),
    # the parameters are passed when the node is instantiated
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    optimizer = instantiate(cfg.optimizer, params=model.parameters())
    # --- config.yaml
    optimizer:
      _target_: torch.optim.Adam
      lr: 0.001
"""),
    # the nodes reach the module's __init__ and are instantiated with params=/optimizer= from there
    textwrap.dedent("""
    # --- train.py
    import hydra
    import lightning as L


    class LitModel(L.LightningModule):
        def __init__(self, optimizer_conf, scheduler_conf):
            super().__init__()
            self.optimizer_conf = optimizer_conf
            self.scheduler_conf = scheduler_conf

        def configure_optimizers(self):
            optimizer = hydra.utils.instantiate(self.optimizer_conf, params=self.parameters())
            scheduler = hydra.utils.instantiate(self.scheduler_conf, optimizer=optimizer)
            return [optimizer], [scheduler]


    @hydra.main(config_path=".", config_name="config", version_base="1.2")
    def main(cfg):
        L.Trainer().fit(LitModel(cfg.optimizer, scheduler_conf=cfg.scheduler))
    # --- config.yaml
    optimizer:
      _target_: torch.optim.AdamW
      lr: 0.0003
    scheduler:
      _target_: torch.optim.lr_scheduler.CosineAnnealingLR
      T_max: 50
"""),
    # the same nested group with `_recursive_=False`: Hydra passes the node to Crab(optimizer=...),
    # which instantiates it with the parameters
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="train", version_base="1.1")
    def main(cfg):
        model = instantiate(cfg.model, _recursive_=False)
    # --- conf/train.yaml
    defaults:
      - model: crab
      - _self_
    seed: 42
    # --- conf/model/crab.yaml
    defaults:
      - optimizer: adam
    _target_: mm.models.Crab
    # --- conf/model/optimizer/adam.yaml
    _target_: torch.optim.Adam
    lr: 0.001
    # --- mm/models.py
    from hydra.utils import instantiate


    class Crab:
        def __init__(self, optimizer):
            self.optimizer_cfg = optimizer

        def configure_optimizers(self):
            return instantiate(self.optimizer_cfg, params=self.parameters())
"""),
    # the root of a config-group file is the optimizer node itself, built with its parameters
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
        model = instantiate(cfg.model)
        optimizer = instantiate(cfg.optimizer, params=model.parameters())
    # --- conf/config.yaml
    defaults:
      - model: resnet
      - optimizer: adamw
      - _self_
    # --- conf/model/resnet.yaml
    _target_: torchvision.models.resnet50
    # --- conf/optimizer/adamw.yaml
    _target_: torch.optim.AdamW
    lr: 0.001
"""),
    # Hydra issue 1715: the node reaches a helper as a parameter, which passes the parameters
    textwrap.dedent("""
    # --- train.py
    import hydra


    def build_optimizer(optcfg, model):
        return hydra.utils.instantiate(optcfg, params=model.parameters())


    @hydra.main(config_path=".", config_name="config", version_base="1.1")
    def main(cfg):
        optimizer = build_optimizer(cfg.optimizer, model)
    # --- config.yaml
    optimizer:
      _target_: torch.optim.Adam
      lr: 0.001
"""),
    # nuplan-devkit: no script of the job builds the node (an installed package does):
    # whether it passes the parameters cannot be seen
    textwrap.dedent("""
    # --- run_training.py
    import hydra
    from nuplan.planning.training.experiments.training import build_training_engine


    @hydra.main(config_path="conf", config_name="config", version_base=None)
    def main(cfg):
        engine = build_training_engine(cfg)
    # --- conf/config.yaml
    seed: 0
    # --- conf/training/raster.yaml
    # @package _global_
    optimizer:
      _target_: torch.optim.Adam
      lr: 5.0e-5
"""),
]
