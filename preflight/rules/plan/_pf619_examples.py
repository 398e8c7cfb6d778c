"""PF619 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# deepspeedai/DeepSpeed#1320's shape: a DeepSpeed script on a 4-GPU allocation started with python
_JOB = dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = torch.nn.Linear(8, 2)
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    # --- run.sbatch
    #!/bin/bash
    #SBATCH --job-name=bert
    {gres}
    {command}
    # --- launch
    {command}
    """)

BAD_EXAMPLES = [
    _JOB.format(gres="#SBATCH --gres=gpu:4  # warning: PF619",
                command="python train.py --deepspeed --deepspeed_config ds_config.json"),
    _JOB.format(gres="#SBATCH --gpus-per-node=8  # warning: PF619", command="python train.py"),
]

GOOD_EXAMPLES = [
    # the fix
    _JOB.format(gres="#SBATCH --gres=gpu:4",
                command="deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json"),
    # tricky-correct: one GPU allocated; srun starting one task per GPU; torchrun
    _JOB.format(gres="#SBATCH --gres=gpu:1", command="python train.py --deepspeed_config ds_config.json"),
    _JOB.format(gres="#SBATCH --gres=gpu:4\n#SBATCH --ntasks-per-node=4",
                command="srun python train.py --deepspeed_config ds_config.json"),
    _JOB.format(gres="#SBATCH --gres=gpu:4", command="torchrun --nproc_per_node 4 train.py"),
]
