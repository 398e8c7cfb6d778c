"""PF163 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# hydra issue 849's shape: the task reads submitit's job environment to set up torch.distributed
_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import submitit
    import torch.distributed as dist


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")  # {pin}
    def main(cfg):
        env = submitit.JobEnvironment()
        dist.init_process_group("nccl", rank=env.global_rank, world_size=env.num_tasks)
        print(cfg.trainer.epochs, cfg.trainer.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - override hydra/launcher: {launcher}
      - _self_

    trainer:
      epochs: 50
      lr: 0.0003
    hydra:
      {mode}launcher:
        gpus_per_node: 4
        tasks_per_node: 4
        timeout_min: 1440
    {extra}# --- launch
    python train.py {args}
""")

# the launcher configured for SLURM, the app itself knows nothing of submitit
_PLAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")  # {pin}
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        print(model, cfg.optim.lr)


    if __name__ == "__main__":
        main()
    # --- conf/train.yaml
    defaults:
      - override hydra/launcher: submitit_slurm
    optim:
      lr: 0.1
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # the job meant for the cluster: launcher resources on the command line, no -m
    _APP.format(pin="error: PF163", launcher="submitit_slurm", mode="", extra="",
                args="trainer.epochs=100 hydra.launcher.partition=gpu"),
    # hydra issue 849: submitit_local and JobEnvironment in a plain run
    _APP.format(pin="error: PF163", launcher="submitit_local", mode="", extra="", args="trainer.lr=0.001"),
    # the launcher chosen on the command line, its timeout set there too
    _PLAIN.format(pin="error: PF163", args="hydra/launcher=submitit_slurm hydra.launcher.timeout_min=600"),
]

GOOD_EXAMPLES = [
    # the fix: a multirun of one job goes through the launcher
    _APP.format(pin="", launcher="submitit_slurm", mode="", extra="",
                args="-m trainer.epochs=100 hydra.launcher.partition=gpu"),
    # tricky-correct: hydra.mode MULTIRUN in the config (Hydra 1.2) makes every run a multirun
    _APP.format(pin="", launcher="submitit_slurm", mode="mode: MULTIRUN\n  ", extra="",
                args="trainer.epochs=100 hydra.launcher.partition=gpu"),
    # tricky-correct: already inside a SLURM allocation, srun starts every task
    _APP.format(pin="", launcher="submitit_slurm", mode="",
                extra="# --- run.sbatch\n#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\n"
                      "srun python train.py trainer.lr=0.001\n",
                args="trainer.lr=0.001"),
    # tricky-correct: the command line picks the basic launcher for a local debug run
    _APP.format(pin="", launcher="submitit_slurm", mode="", extra="",
                args="hydra/launcher=basic trainer.epochs=1"),
    # tricky-correct: the submitit launcher kept for sweeps, nothing in this plain run expects it
    _PLAIN.format(pin="", args="optim.lr=0.01"),
    # tricky-correct: the job environment read under try/except (the app runs locally too)
    _APP.format(pin="", launcher="submitit_slurm", mode="", extra="", args="trainer.lr=0.001").replace(
        "    env = submitit.JobEnvironment()\n    dist.init_process_group",
        "    try:\n        env = submitit.JobEnvironment()\n    except RuntimeError:\n        env = None\n"
        "    dist.init_process_group"),
    # tricky-correct: a joblib launcher runs on the same machine anyway
    _APP.format(pin="", launcher="joblib", mode="", extra="", args="hydra.launcher.n_jobs=2"),
]
