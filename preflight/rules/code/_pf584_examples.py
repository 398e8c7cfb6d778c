"""PF584 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF584`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the Hydra config itself
    textwrap.dedent("""\
    import hydra
    import wandb
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")
    def main(cfg: DictConfig) -> None:
        run = wandb.init(project=cfg.logging.project, config=cfg)  # warning: PF584
        run.finish()
"""),
    # detrex issue 301 shape: the LazyConfig handed to a writer class that starts the run
    """\
import wandb
from detectron2.config import LazyConfig


class WandbWriter:
    def __init__(self, project, config, **kwargs):
        self._run = wandb.init(project=project, config=config, **kwargs)  # warning: PF584


def build_writers(cfg, output_dir):
    return [WandbWriter(project="det", config=cfg, dir=output_dir)]


def main(path):
    cfg = LazyConfig.load(path)
    return build_writers(cfg, "out")
""",
]

GOOD_EXAMPLES = [
    # the fix: a plain container
    textwrap.dedent("""\
    import hydra
    import wandb
    from omegaconf import DictConfig, OmegaConf


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")
    def main(cfg: DictConfig) -> None:
        run = wandb.init(project=cfg.logging.project, config=OmegaConf.to_container(cfg, resolve=True))
        run.finish()
"""),
    # tricky: the writer takes a config whose callers are not in view, and argparse args elsewhere
    """\
import argparse

import wandb


class WandbWriter:
    def __init__(self, project, config):
        self._run = wandb.init(project=project, config=config)


def start(args):
    return wandb.init(project="p", config=vars(args))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    start(parser.parse_args())
""",
    # tricky: a node of the config converted before it reaches wandb
    textwrap.dedent("""\
    import wandb
    from omegaconf import OmegaConf

    conf = OmegaConf.load("train.yaml")
    params = OmegaConf.to_container(conf.optim, resolve=True)
    wandb.init(project="p", config=params)
"""),
]
