"""PF687 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# Zhongdao/Towards-Realtime-MOT#65's shape: a second job on a shared node meant for GPUs 4-7
_TRAIN = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(8, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- run_train.sh
    #!/bin/bash
    set -e
    {line}
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
    """)

_PINNED = dedent("""
    # --- train.py
    import os

    import torch

    {line}
    model = torch.nn.Linear(8, 2).cuda()
    """)

BAD_EXAMPLES = [
    _TRAIN.format(line="CUDA_VISIBLE_DEIVCES=4,5,6,7 accelerate launch --multi_gpu --num_processes 4 train.py"
                       "  # error: PF687"),
    _TRAIN.format(line="export CUDA_VISIBLE_DEVICE=4,5,6,7  # error: PF687\n"
                       "accelerate launch --multi_gpu --num_processes 4 train.py"),
    _TRAIN.format(line="cuda_visible_devices=4,5,6,7 accelerate launch --multi_gpu --num_processes 4 train.py"
                       "  # error: PF687"),
    _PINNED.format(line='os.environ["CUDA_VISIBLE_DEVICE"] = "1"  # error: PF687'),
    _PINNED.format(line='os.environ.setdefault("CUDA_VISBLE_DEVICES", "0,1")  # error: PF687'),
]

GOOD_EXAMPLES = [
    # the fix
    _TRAIN.format(line="CUDA_VISIBLE_DEVICES=4,5,6,7 accelerate launch --multi_gpu --num_processes 4 train.py"),
    _TRAIN.format(line="export CUDA_VISIBLE_DEVICES=4,5,6,7\n"
                       "accelerate launch --multi_gpu --num_processes 4 train.py"),
    # tricky-correct: real variables near the name (a container's, ROCm's) and a shell variable read back
    _TRAIN.format(line="export NVIDIA_VISIBLE_DEVICES=all HIP_VISIBLE_DEVICES=0,1,2,3\n"
                       "accelerate launch --multi_gpu --num_processes 4 train.py"),
    _TRAIN.format(line="CUDA_VISIBLE_DEVICE=4,5,6,7\n"
                       "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICE accelerate launch --multi_gpu --num_processes 4 "
                       "train.py"),
    # a message that quotes the name sets nothing
    _TRAIN.format(line='echo "run with CUDA_VISIBLE_DEVICE=4,5,6,7 set"\n'
                       "accelerate launch --multi_gpu --num_processes 4 train.py"),
    _PINNED.format(line='os.environ["CUDA_VISIBLE_DEVICES"] = "1"'),
    _PINNED.format(line='os.environ.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")'),
    # Moore Threads GPUs read MUSA_VISIBLE_DEVICES (two letters from CUDA_...)
    _PINNED.format(line='os.environ["MUSA_VISIBLE_DEVICES"] = "0"'),
    # only read: a lookup under the wrong name is not a device choice
    _PINNED.format(line='gpus = os.environ.get("CUDA_VISIBLE_DEVICE", "0")'),
]
