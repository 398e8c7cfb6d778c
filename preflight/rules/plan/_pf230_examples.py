"""PF230 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    import torch.distributed as dist

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=0)
    args = parser.parse_args()

    torch.cuda.set_device(args.local_rank){pin}
    dist.init_process_group(backend="nccl")
""")

BAD_EXAMPLES = [
    # PICK-pytorch#14: two visible GPUs, four processes
    _TRAIN.format(pin="  # error: PF230") + """\
# --- launch
CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nproc_per_node=4 train.py
""",
    _TRAIN.format(pin="  # error: PF230") + """\
# --- launch
CUDA_VISIBLE_DEVICES=3 torchrun --standalone --nproc-per-node 2 train.py
""",
    # accelerate on one machine
    _TRAIN.format(pin="  # error: PF230") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0,1 accelerate launch --num_processes 4 train.py
""",
]

GOOD_EXAMPLES = [
    # the fix
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nproc_per_node=2 train.py
""",
    # tricky-correct: fewer processes than visible devices; a device count chosen at run time
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node 2 train.py
""",
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node gpu train.py
""",
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=$GPUS torchrun --nproc_per_node 4 train.py
""",
    # accelerate with --gpu_ids chooses the devices itself
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0 accelerate launch --num_processes 2 --gpu_ids 0,1 train.py
""",
    # the deepspeed launcher turns CUDA_VISIBLE_DEVICES into its --include (PF545 covers the rest)
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0,1 deepspeed train.py
""",
]
