"""PF667 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_CIFAR = textwrap.dedent("""
    import deepspeed
    import torch
    import torchvision
    {imports}

    def main(args, net, transform):
        deepspeed.init_distributed(){pin}
        {pick}
        if torch.distributed.get_rank() != 0:
            torch.distributed.barrier()
        trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=transform)
        if torch.distributed.get_rank() == 0:
            torch.distributed.barrier()
        model_engine, optimizer, trainloader, _ = deepspeed.initialize(
            args=args, model=net, model_parameters=net.parameters(), training_data=trainset)
        return model_engine
""")

PF667_BAD = [
    # DeepSpeedExamples PR 931 (held-out-32): the CIFAR example's barrier before any set_device
    _CIFAR.format(imports="", pin="  # warning: PF667", pick="pass"),
    # init_process_group("nccl") then an all_reduce of a CUDA tensor, the device never chosen
    textwrap.dedent("""
    import torch
    import torch.distributed as dist


    def setup():
        dist.init_process_group("nccl")  # warning: PF667
        flag = torch.ones(1).cuda()
        dist.all_reduce(flag)
        return flag
    """),
]

PF667_GOOD = [
    # the PR's fix: the local rank's GPU selected right after init
    _CIFAR.format(imports="import os\n", pin="", pick='torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))'),
    # tricky-correct: the device given to init_process_group (torch >= 2.3)
    textwrap.dedent("""
    import os

    import torch
    import torch.distributed as dist


    def setup():
        local_rank = int(os.environ["LOCAL_RANK"])
        dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank))
        dist.barrier()
    """),
    # tricky-correct: gloo needs no GPU
    textwrap.dedent("""
    import torch.distributed as dist


    def setup():
        dist.init_process_group("gloo")
        dist.barrier()
    """),
    # tricky-correct: a fallback init in a test whose harness sets the group and the device up (Megatron-LM
    # tests/unit_tests/transformer/test_transformer_block_custom_pgs.py)
    textwrap.dedent("""
    import torch


    def test_block(build):
        if not torch.distributed.is_initialized():
            torch.distributed.init_process_group(backend="nccl")
        torch.distributed.barrier()
        return build()
    """),
    # tricky-correct: the first collective after deepspeed.initialize, which sets the local rank's device
    textwrap.dedent("""
    import deepspeed
    import torch.distributed as dist


    def main(args, model, dataset):
        deepspeed.init_distributed()
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, training_data=dataset)
        shared = ["outputs/run"]
        dist.broadcast_object_list(shared, src=0)
        return engine, shared
    """),
]
