"""PF300 examples: executable documentation. A bad example marks each line it must be reported on with a
trailing ``# error: PF300`` comment; the meta-test asserts exactly those findings. Good examples stay silent."""

from __future__ import annotations

import textwrap

PF300_BAD = [
    # wandb/docs#1964 (held-out-46 case h46-hy-wandb-run-config-assigned-as-an-attribute): the documented Hydra
    # integration assigned the converted config to the Run
    textwrap.dedent("""
    import hydra
    import omegaconf
    import wandb


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        with wandb.init(entity=cfg.wandb.entity, project=cfg.wandb.project) as run:
            run.config = omegaconf.OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)  # error: PF300
            run.log({"loss": 0.0})
    """),
    # the global run, and a Run bound with `run = wandb.init(...)`
    textwrap.dedent("""
    import wandb


    def train(args):
        run = wandb.init(project="demo")
        run.config = vars(args)  # error: PF300
        wandb.run.config = {"lr": args.lr}  # error: PF300
        run.finish()
    """),
    # a Lightning WandbLogger's experiment is the Run
    textwrap.dedent("""
    from lightning.pytorch.loggers import WandbLogger


    def build_logger(cfg):
        logger = WandbLogger(project="demo")
        logger.experiment.config = dict(cfg)  # error: PF300
        return logger
    """),
]

PF300_GOOD = [
    # the fix: the config goes to wandb.init
    textwrap.dedent("""
    import hydra
    import omegaconf
    import wandb


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        config = omegaconf.OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)
        with wandb.init(entity=cfg.wandb.entity, project=cfg.wandb.project, config=config) as run:
            run.log({"loss": 0.0})
    """),
    # update / item / attribute writes on the Config object are supported
    textwrap.dedent("""
    import wandb


    def train(args):
        run = wandb.init(project="demo")
        run.config.update(vars(args))
        run.config["lr"] = args.lr
        run.config.batch_size = args.batch_size
        wandb.config.update({"seed": args.seed})
    """),
    # tricky-correct: a public-API run (wandb.Api().run) has a writable config, saved with run.update()
    textwrap.dedent("""
    import wandb
    from omegaconf import OmegaConf


    def backfill(path, config):
        api = wandb.Api()
        run = api.run(path)
        run.config = OmegaConf.to_container(config, resolve=True)
        run.update()
    """),
    # tricky-correct: a name reused for the API run after the training run finished
    textwrap.dedent("""
    import wandb


    def train(args):
        run = wandb.init(project="demo")
        run.finish()
        run = wandb.Api().run(f"demo/{args.run_id}")
        run.config = {"lr": args.lr}
        run.update()
    """),
    # tricky-correct: a project's own object named run
    textwrap.dedent("""
    class Run:
        def __init__(self):
            self.config = {}


    def make():
        run = Run()
        run.config = {"lr": 1e-3}
        return run
    """),
]
