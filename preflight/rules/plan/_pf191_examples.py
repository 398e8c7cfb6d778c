"""PF191 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import wandb
    from omegaconf import DictConfig, OmegaConf


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        wandb.init(config=OmegaConf.to_container(cfg, resolve=True))
        for epoch in range(cfg.epochs):
            wandb.log({"epoch": epoch, "lr": cfg.lr})


    if __name__ == "__main__":
        main()
    """)

_REQ = """\
# --- requirements.txt
hydra-core==1.3.2
wandb==0.16.0
"""

_CFG = """\
# --- conf/config.yaml
project: detr
epochs: 50
lr: 1e-4

hydra:
  job:
    env_set:
      WANDB_PROJECT: ${project}  # warning: PF191
"""

BAD = [
    # hydra issue 2800: env_set cannot interpolate the task config on released hydra-core
    _TRAIN + _REQ + _CFG,
    # nothing pinned: pip installs the latest release, which still has the defect
    _TRAIN + _CFG.replace("${project}", "${project}-${lr}"),
]

GOOD = [
    # a literal value
    _TRAIN + _REQ + _CFG.replace("${project}  # warning: PF191", "detr"),
    # tricky: Hydra's own keys and resolvers resolve on the Hydra config
    _TRAIN + _REQ + _CFG.replace("WANDB_PROJECT: ${project}  # warning: PF191",
                                 "WANDB_DIR: ${hydra:runtime.output_dir}\n"
                                 "      WANDB_NAME: ${hydra.job.name}\n"
                                 "      DATA_HOME: ${oc.env:HOME}/data"),
    # a project on hydra-core 1.4, whose run_job resolves env_set before the copy
    _TRAIN + _REQ.replace("1.3.2", "1.4.0") + _CFG.replace("  # warning: PF191", ""),
]
