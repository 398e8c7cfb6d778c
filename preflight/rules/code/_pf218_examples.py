"""PF218 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    from omegaconf import OmegaConf


    def log_hyperparameters(object_dict):
        hparams = {{}}
        cfg = OmegaConf.to_container(object_dict["cfg"]{resolve}){pin}
        model = object_dict["model"]
        trainer = object_dict["trainer"]
        if not trainer.logger:
            return
        hparams["model"] = cfg["model"]
        hparams["data"] = cfg["data"]
        hparams["model/params/total"] = sum(p.numel() for p in model.parameters())
        for logger in trainer.loggers:
            logger.log_hyperparams(hparams)
""")

BAD_EXAMPLES = [
    # lightning-hydra-template issue 615: the template's own helper
    _TEMPLATE.format(resolve="", pin="  # warning: PF218"),
    # straight into wandb.init, resolve=False written out
    textwrap.dedent("""
    import hydra
    import wandb
    from omegaconf import DictConfig, OmegaConf


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        run = wandb.init(project="seg", config=OmegaConf.to_container(cfg, resolve=False))  # warning: PF218
        run.finish()
"""),
]

BAD_EXAMPLES.append(
    # Lightning's WandbLogger forwards config= to wandb.init
    textwrap.dedent("""
    import hydra
    from lightning.pytorch.loggers import WandbLogger
    from omegaconf import OmegaConf


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        logger = WandbLogger(project=cfg.project_name,
                             config=OmegaConf.to_container(cfg))  # warning: PF218
        return logger
"""))

GOOD_EXAMPLES = [
    # the fix
    _TEMPLATE.format(resolve=", resolve=True", pin=""),
    # tricky-correct: the container feeds a constructor, and the logged one is resolved
    textwrap.dedent("""
    import wandb
    from omegaconf import OmegaConf

    from models import Net


    def setup(cfg):
        net = Net(**OmegaConf.to_container(cfg.model))
        params = OmegaConf.to_container(cfg.model)
        params = OmegaConf.to_container(cfg, resolve=True)
        wandb.init(project="seg", config=params)
        return net
"""),
    # tricky-correct: the config is resolved in place first
    textwrap.dedent("""
    import wandb
    from omegaconf import OmegaConf


    def setup(cfg):
        OmegaConf.resolve(cfg)
        wandb.init(project="seg", config=OmegaConf.to_container(cfg))
"""),
]
