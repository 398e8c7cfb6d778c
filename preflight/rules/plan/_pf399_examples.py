"""PF399 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# the forum report behind huggingface/accelerate#1452: four GPUs, accelerate 0.19
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(){pin}
    model = torch.nn.Linear(8, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- requirements.txt
    accelerate=={version}
    torch==2.0.1
    # --- launch
    {env}accelerate launch {flags} train.py --epochs 10
    """)

# the same job submitted with a SLURM batch script that allocates four GPUs
_SBATCH = _JOB.replace("# --- launch", "# --- launch.sh\n#!/bin/bash\n#SBATCH --gres=gpu:4\n"
                       "accelerate launch {flags} train.py --epochs 10\n# --- launch")

_VISIBLE = "CUDA_VISIBLE_DEVICES=0,1,2,3 "

BAD_EXAMPLES = [
    _SBATCH.format(pin="  # warning: PF399", version="0.19.0", flags="--num_processes 4", env=""),
    _JOB.format(pin="  # warning: PF399", version="0.18.0", flags="--num_processes=2 --mixed_precision fp16",
                env=_VISIBLE),
]

GOOD_EXAMPLES = [
    # the fix
    _SBATCH.format(pin="", version="0.19.0", flags="--multi_gpu --num_processes 4", env=""),
    # tricky-correct: 0.20 and later turn multi-GPU on by themselves (huggingface/accelerate#1452)
    _SBATCH.format(pin="", version="0.20.0", flags="--num_processes 4", env=""),
    # no several GPUs in view (no allocation, no device list): the count may be a template's default
    _JOB.format(pin="", version="0.19.0", flags="--num_processes 4", env=""),
    # a config file, one process, or no pin at all
    _JOB.format(pin="", version="0.19.0", flags="--config_file multi_gpu.yaml --num_processes 4", env=_VISIBLE),
    _JOB.format(pin="", version="0.19.0", flags="--num_processes 1", env=_VISIBLE),
    _JOB.format(pin="", version="0.19.0", flags="--use_deepspeed --num_processes 4", env=_VISIBLE),
]
