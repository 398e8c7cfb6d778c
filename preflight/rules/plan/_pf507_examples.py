"""PF507 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF507_BAD = [
    textwrap.dedent("""
    # --- train.py
    import hydra

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)

    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - model: mlp
      - _self_
    seed: 0
    # --- configs/model/mlp.yaml
    _target_: mypkg.MLP
    hidden: 256
    lr: ???  # warning: PF507
"""),
    # assigned at runtime, but only after the node holding it was already read
    textwrap.dedent("""
    # --- train.py
    import hydra

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        model = build(**cfg.model)
        cfg.model.vocab_size = 100

    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - model: textcnn
      - _self_
    seed: 0
    # --- configs/model/textcnn.yaml
    vocab_size: ???  # warning: PF507
    dim: 300
"""),
    # a MISSING field of a structured config stored in the ConfigStore, left unset by the primary config
    # (hydra issue 2193: Hydra composes it and the run fails at the first checkpoint, when it is read)
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass

    import hydra
    from hydra.core.config_store import ConfigStore
    from omegaconf import MISSING


    @dataclass
    class TrainConfig:
        ckpt_dir: str = MISSING  # warning: PF507
        data_root: str = MISSING
        max_steps: int = 1000


    cs = ConfigStore.instance()
    cs.store(name="base_config", node=TrainConfig)


    @hydra.main(version_base="1.2", config_path="conf", config_name="config")
    def main(cfg: TrainConfig) -> None:
        for step in range(cfg.max_steps):
            train_step(cfg.data_root)
        save(cfg.ckpt_dir)
    # --- conf/config.yaml
    defaults:
      - base_config
      - _self_

    # ckpt_dir: /checkpoints/run1
    data_root: /datasets/coco
"""),
]

PF507_GOOD = [    # the launch command gives the mandatory value
    textwrap.dedent("""
    # --- train.py
    import hydra

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)
    # --- configs/train.yaml
    defaults:
      - model: mlp
      - _self_
    # --- configs/model/mlp.yaml
    _target_: mypkg.MLP
    lr: ???
    # --- launch
    python train.py model.lr=3e-4
"""),
    textwrap.dedent("""
    # --- train.py
    import hydra

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        print(cfg.lr)
    # --- configs/train.yaml
    lr: 0.001
"""),
    # the script fills the mandatory value in before it instantiates the node (facebookresearch/drqv2
    # train.py:28-31 @ c0c650b: `cfg.obs_shape = obs_spec.shape`)
    textwrap.dedent("""
    # --- train.py
    import hydra

    def make_agent(obs_shape, cfg):
        cfg.obs_shape = obs_shape
        return hydra.utils.instantiate(cfg)

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        agent = make_agent((9, 84, 84), cfg.agent)
    # --- configs/train.yaml
    agent:
      _target_: mypkg.Agent
      obs_shape: ???  # to be specified later
"""),
    # the app fills the mandatory value in at runtime before anything reads it
    textwrap.dedent("""
    # --- train.py
    import hydra

    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        vocab = load_vocab(cfg.data.path)
        cfg.model.vocab_size = len(vocab)
        model = build(**cfg.model)

    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - model: textcnn
      - _self_
    data:
      path: data
    # --- configs/model/textcnn.yaml
    vocab_size: ???
    dim: 300
"""),
    # the primary config sets every MISSING field of the stored structured config
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass

    import hydra
    from hydra.core.config_store import ConfigStore
    from omegaconf import MISSING


    @dataclass
    class TrainConfig:
        ckpt_dir: str = MISSING
        max_steps: int = 1000


    cs = ConfigStore.instance()
    cs.store(name="base_config", node=TrainConfig)


    @hydra.main(version_base="1.2", config_path="conf", config_name="config")
    def main(cfg: TrainConfig) -> None:
        save(cfg.ckpt_dir)
    # --- conf/config.yaml
    defaults:
      - base_config
      - _self_

    ckpt_dir: /checkpoints/run1
"""),
    # tricky: a MISSING field of the stored schema that no code reads (a leftover of the schema): nothing
    # raises, and the launch line sets the one that is read
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass

    import hydra
    from hydra.core.config_store import ConfigStore
    from omegaconf import MISSING


    @dataclass
    class TrainConfig:
        legacy_vocab_file: str = MISSING
        ckpt_dir: str = MISSING
        max_steps: int = 1000


    cs = ConfigStore.instance()
    cs.store(name="base_config", node=TrainConfig)


    @hydra.main(version_base="1.2", config_path="conf", config_name="config")
    def main(cfg: TrainConfig) -> None:
        save(cfg.ckpt_dir)
    # --- conf/config.yaml
    defaults:
      - base_config
      - _self_
    # --- launch
    python train.py ckpt_dir=/checkpoints/run1
"""),
]
