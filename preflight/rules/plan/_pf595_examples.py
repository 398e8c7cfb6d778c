"""PF595 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch.distributed as dist
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")
    def main(cfg: DictConfig) -> None:
        dist.init_process_group("nccl")
        print(cfg.optim.lr, cfg.epochs)


    if __name__ == "__main__":
        main()
""")

# Lightning PR 5629's shape: a plain `python train.py` whose Trainer config starts Lightning's own ddp launcher
_PL_DDP = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl
    from omegaconf import DictConfig


    @hydra.main(config_path="configs", config_name="config")
    def main(cfg: DictConfig) -> None:
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(pl.LightningModule())


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    hydra:
      run:
        dir: outputs/${{now:%Y-%m-%d_%H-%M-%S}}{mark}
    trainer:
      gpus: {gpus}
      accelerator: ddp
      max_epochs: 40
    # --- requirements.txt
    pytorch-lightning=={lightning}
    # --- launch
    python train.py
    """)

BAD_EXAMPLES = [
    _PL_DDP.format(mark="  # warning: PF595", gpus=4, lightning="1.1.4"),
    # Hydra issue 2070: one process per GPU, each resolves its own timestamp
    _TRAIN + """\
# --- conf/train.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}  # warning: PF595
optim:
  lr: 0.1
epochs: 90
# --- launch
torchrun --nproc_per_node 4 train.py optim.lr=0.2
""",
    # the folder set in the `hydra` option the primary config selects; srun starts one task per
    # task of the #SBATCH allocation (2 nodes x 4)
    _TRAIN + """\
# --- conf/train.yaml
defaults:
  - hydra: cluster
  - _self_
optim:
  lr: 0.1
epochs: 90
# --- conf/hydra/cluster.yaml
run:
  dir: /scratch/runs/${now:%Y-%m-%d_%H-%M-%S}  # warning: PF595
# --- launch.sh
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gres=gpu:4
srun python train.py optim.lr=0.2
# --- launch
srun python train.py optim.lr=0.2
""",
]

GOOD_EXAMPLES = [
    # tricky: Lightning 1.2 passes the parent's run folder to the ddp children
    _PL_DDP.format(mark="", gpus=4, lightning="1.2.0"),
    # tricky: PR 5629 was released in 1.1.6 too (git tag --contains ca68cac5: 1.1.6, 1.1.7, 1.1.8)
    _PL_DDP.format(mark="", gpus=4, lightning="1.1.6"),
    # tricky: one GPU, no child process
    _PL_DDP.format(mark="", gpus=1, lightning="1.1.4"),
    # the fix: one folder for every process, fixed before the launch
    _TRAIN + """\
# --- conf/train.yaml
hydra:
  run:
    dir: outputs/${oc.env:RUN_ID}
optim:
  lr: 0.1
epochs: 90
# --- launch
torchrun --nproc_per_node 4 train.py optim.lr=0.2
""",
    # tricky: the launch line overrides the timestamped folder with a fixed one
    _TRAIN + """\
# --- conf/train.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
optim:
  lr: 0.1
epochs: 90
# --- launch
torchrun --nproc_per_node 4 train.py hydra.run.dir=outputs/resnet50-run3
""",
    # tricky: a timestamped folder, but one process (torchrun with a single worker)
    _TRAIN + """\
# --- conf/train.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
optim:
  lr: 0.1
epochs: 90
# --- launch
torchrun --nproc_per_node 1 train.py
""",
    # tricky: srun in a batch job of one task (the app starts its own workers)
    _TRAIN + """\
# --- conf/train.yaml
hydra:
  run:
    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}
optim:
  lr: 0.1
epochs: 90
# --- launch.sh
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gres=gpu:4
srun python train.py
# --- launch
srun python train.py
""",
]
