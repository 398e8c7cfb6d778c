"""PF656 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

# NOC (kakaobrain/noc issue 5): the run is sized in steps, so max_epochs must stay null
_NOC = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl
    from omegaconf import DictConfig

    from noc.utils import infer_and_assert_hydra_config
    from noc.model import build_module


    @hydra.main(version_base=None, config_path="config", config_name="default")
    def main(cfg: DictConfig) -> None:
        cfg = infer_and_assert_hydra_config(cfg)
        trainer = pl.Trainer(max_steps=cfg.experiment.max_steps, max_epochs=cfg.experiment.max_epochs)
        trainer.fit(build_module(cfg))


    if __name__ == "__main__":
        main()
    # --- noc/utils.py
    def infer_and_assert_hydra_config(cfg):
        # Lightning stops at whichever of max_steps / max_epochs comes first: size the run by steps only
        if cfg.experiment.max_steps is not None:
            assert cfg.experiment.max_epochs is None
        return cfg
    """)

BAD_EXAMPLES = [
    _NOC + """\
# --- config/default.yaml
experiment:
  max_steps: 100000
  max_epochs: 10  # error: PF656
  lr: 0.0001
""",
    # the check in the task function itself, a value outside an allowed set
    textwrap.dedent("""
        # --- train.py
        import hydra


        @hydra.main(version_base="1.3", config_path="conf", config_name="config")
        def main(cfg):
            assert cfg.model.norm in ("batch", "group", "layer"), "unknown norm"
            print(cfg.model.norm)


        if __name__ == "__main__":
            main()
        # --- conf/config.yaml
        model:
          name: resnet
          norm: instance  # error: PF656
        """),
    # the config composed with compose() in a helper, checked by a function it is handed to
    textwrap.dedent("""
        # --- train.py
        from hydra import compose, initialize


        def check(conf):
            if conf.optim.scheduler == "cosine":
                assert conf.optim.warmup_steps < conf.optim.total_steps


        def load():
            with initialize(version_base=None, config_path="conf"):
                cfg = compose(config_name="config")
            check(cfg)
            return cfg


        if __name__ == "__main__":
            print(load())
        # --- conf/config.yaml
        optim:
          scheduler: cosine
          warmup_steps: 5000  # error: PF656
          total_steps: 2000
        """),
]

GOOD_EXAMPLES = [
    # the NOC fix: max_epochs left null
    _NOC + """\
# --- config/default.yaml
experiment:
  max_steps: 100000
  max_epochs: null
  lr: 0.0001
""",
    # tricky: the assert is under a guard the config does not take (the run is sized in epochs)
    _NOC + """\
# --- config/default.yaml
experiment:
  max_steps: null
  max_epochs: 10
  lr: 0.0001
""",
    # tricky: the value is an interpolation (not known here), and an assert on a value the config lacks
    textwrap.dedent("""
        # --- train.py
        import hydra


        @hydra.main(version_base="1.3", config_path="conf", config_name="config")
        def main(cfg):
            assert cfg.model.norm in ("batch", "group")
            assert cfg.model.depth > 0
            print(cfg.model.norm)


        if __name__ == "__main__":
            main()
        # --- conf/config.yaml
        defaults_norm: batch
        model:
          name: resnet
          norm: ${defaults_norm}x
        """),
    # tricky: the assert sits in a try whose handler falls back
    textwrap.dedent("""
        # --- train.py
        import hydra


        @hydra.main(version_base="1.3", config_path="conf", config_name="config")
        def main(cfg):
            try:
                assert cfg.trainer.devices == 1
                single = True
            except AssertionError:
                single = False
            print(single)


        if __name__ == "__main__":
            main()
        # --- conf/config.yaml
        trainer:
          devices: 4
        """),
]
