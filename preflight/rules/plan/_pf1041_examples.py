"""PF1041 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_TRAIN = dedent("""
    # --- train.py
    import argparse
    import os

    import torch
    import torch.distributed as dist

    parser = argparse.ArgumentParser()
    parser.add_argument("--run", default="a")
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(64, 64).cuda(), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    # --- run.sh
    #!/bin/bash
    {body}
    """)

BAD_EXAMPLES = [
    # pytorch issue 73320: two runs on one 8-GPU machine, GPUs 0-3 and 4-7, both on torchrun's default port
    _TRAIN.format(body=dedent("""\
        CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node=4 train.py --run a &
        CUDA_VISIBLE_DEVICES=4,5,6,7 torchrun --nproc_per_node=4 train.py --run b &  # error: PF1041
        wait""")),
    # facebookresearch/XLM issue 53: two torch.distributed.launch jobs at once, the port left at its default
    _TRAIN.format(body=dedent("""\
        export NGPU=2
        CUDA_VISIBLE_DEVICES=0,1 python -m torch.distributed.launch --nproc_per_node=$NGPU train.py \\\\
            --run mlm_en --lr 1e-4 > en.log 2>&1 &
        CUDA_VISIBLE_DEVICES=2,3 python -m torch.distributed.launch --nproc_per_node=$NGPU train.py \\\\
            --run mlm_fr --lr 1e-4 > fr.log 2>&1 &  # error: PF1041
        wait""")),
    # a learning-rate sweep: one deepspeed launch per value, all in the background, one explicit port
    _TRAIN.format(body=dedent("""\
        GPU=0
        for lr in 1e-4 3e-4 1e-3; do
            deepspeed --include localhost:$GPU --master_port 29600 train.py --lr $lr &  # error: PF1041
            GPU=$((GPU + 1))
        done
        wait""")),
]

GOOD_EXAMPLES = [
    # the fix: each run its own port
    _TRAIN.format(body=dedent("""\
        CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node=4 --master_port 29500 train.py --run a &
        CUDA_VISIBLE_DEVICES=4,5,6,7 torchrun --nproc_per_node=4 --master_port 29501 train.py --run b &
        wait""")),
    # torchrun --standalone picks a free port for each run
    _TRAIN.format(body=dedent("""\
        CUDA_VISIBLE_DEVICES=0,1 torchrun --standalone --nproc_per_node=2 train.py --run a &
        CUDA_VISIBLE_DEVICES=2,3 torchrun --standalone --nproc_per_node=2 train.py --run b &
        wait""")),
    # tricky: one after the other (a wait between), and a per-run port computed in the loop
    _TRAIN.format(body=dedent("""\
        CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=2 train.py --run a &
        wait
        CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=2 train.py --run b &
        wait
        for i in 0 1 2 3; do
            CUDA_VISIBLE_DEVICES=$i torchrun --nproc_per_node=1 --master_port $((29500 + i)) train.py --run r$i &
        done
        wait""")),
    # tricky: the two launches run on two nodes through ssh, and a loop that waits for each run
    _TRAIN.format(body=dedent("""\
        ssh node0 "cd ~/proj && torchrun --nproc_per_node=8 train.py --run a" &
        ssh node1 "cd ~/proj && torchrun --nproc_per_node=8 train.py --run b" &
        wait
        for lr in 1e-4 1e-3; do
            torchrun --nproc_per_node=8 train.py --lr $lr &
            wait
        done""")),
    # tricky: only one distributed launch in the background; the other background job is single-process
    _TRAIN.format(body=dedent("""\
        torchrun --nproc_per_node=4 train.py --run a &
        python train.py --run eval-watcher &
        accelerate launch --num_processes 1 train.py --run b &
        wait""")),
]
