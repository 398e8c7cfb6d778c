"""PF1042 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# YoujiaZhang/Ref-GS#4's shape: train.py hard-codes a GPU, the launch picks the workstation's only one
_HARDCODED = dedent("""
    # --- train.py
    import os
    {line}
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"

    import torch

    params = torch.nn.Parameter(torch.randn(1000, 3, device="cuda"))
    optimizer = torch.optim.Adam([params], lr=1.6e-4)
    # --- run.sh
    #!/bin/bash
    CUDA_VISIBLE_DEVICES=0 python train.py -s data/garden
    # --- launch
    CUDA_VISIBLE_DEVICES=0 python train.py -s data/garden
    """)

# jychoi118/P2-weighting#18's shape: the distributed setup derives the GPU from the MPI rank
_MPI = dedent("""
    # --- scripts/image_train.py
    import os

    import torch as th
    import torch.distributed as dist
    from mpi4py import MPI

    GPUS_PER_NODE = 8


    def setup_dist():
        if dist.is_initialized():
            return
        {line}
        os.environ["MASTER_ADDR"] = "localhost"
        dist.init_process_group(backend="nccl", init_method="env://")


    setup_dist()
    model = th.nn.Conv2d(3, 3, 3).to("cuda")
    # --- run.sh
    #!/bin/bash
    export CUDA_VISIBLE_DEVICES=1
    mpiexec -n 1 python scripts/image_train.py --batch_size 8
    # --- launch
    mpiexec -n 1 python scripts/image_train.py --batch_size 8
    """)

BAD_EXAMPLES = [
    _HARDCODED.format(line='os.environ["CUDA_VISIBLE_DEVICES"] = "2"  # warning: PF1042'),
    _MPI.format(line='os.environ["CUDA_VISIBLE_DEVICES"] = f"{MPI.COMM_WORLD.Get_rank() % GPUS_PER_NODE}"'
                     '  # warning: PF1042'),
]

GOOD_EXAMPLES = [
    # the fix: only a default when the launch chose nothing
    _HARDCODED.format(line='os.environ.setdefault("CUDA_VISIBLE_DEVICES", "2")'),
    # the same value as the launch's
    _HARDCODED.format(line='os.environ["CUDA_VISIBLE_DEVICES"] = "0"'),
    # tricky: guarded by the variable's absence, and a value from the command line
    _HARDCODED.format(line='if "CUDA_VISIBLE_DEVICES" not in os.environ:\n'
                           '    os.environ["CUDA_VISIBLE_DEVICES"] = "2"'),
    _MPI.format(line='os.environ["CUDA_VISIBLE_DEVICES"] = os.environ.get("CUDA_VISIBLE_DEVICES", '
                     'f"{MPI.COMM_WORLD.Get_rank() % GPUS_PER_NODE}")'),
    # tricky: a helper that sets the variable from its parameter (the caller's choice)
    dedent("""
    # --- train.py
    import os
    import sys


    def set_gpu(cuda_device):
        os.environ["CUDA_VISIBLE_DEVICES"] = cuda_device


    set_gpu(sys.argv[1])
    import torch

    model = torch.nn.Linear(4, 4).cuda()
    # --- launch
    CUDA_VISIBLE_DEVICES=0 python train.py 0
    """),
]
