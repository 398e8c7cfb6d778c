"""Issue 15, branch jobs27: values the plan takes through project code, from the shapes of sets 16-18
(fixtures of our own that copy the real code's shape; each with a twin that must stay as before).

- a project's ``DataLoader`` subclass (huggingface/picotron @ 59714b1 ``picotron/data.py:12-60``,
  ``train.py:106-118``): the call's arguments are the torch loader's batch, workers and pinning;
- the per-rank batch bound to a name (willisma/SiT @ 947f95b ``train.py:125,200``);
"""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

# picotron's shape: a nested JSON config read with json.load, values handed to a DataLoader subclass
# whose __init__ passes them on to DataLoader.__init__ (pin_memory only through its own default)
_PICO_DATA = """\
    from torch.utils.data import DataLoader


    class ChunkLoader(DataLoader):
        def __init__(self, micro_batch_size, seq_length, num_workers, grad_acc_steps, pin_memory=True):
            self.micro_batch_size = micro_batch_size
            self.grad_acc_steps = grad_acc_steps
            data = list(range(seq_length))
            super().__init__(data, batch_size=micro_batch_size, pin_memory=pin_memory, num_workers=num_workers)
"""
_PICO_TRAIN = """\
    import argparse
    import json

    import torch
    from pico.data import ChunkLoader

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str)
        args = parser.parse_args()
        with open(args.config, "r") as f:
            config = json.load(f)
        loader = ChunkLoader(
            micro_batch_size=config["training"]["micro_batch_size"],
            seq_length=config["training"]["seq_length"],
            num_workers=config["dataset"]["num_workers"],
            grad_acc_steps=config["training"]["gradient_accumulation_steps"],
        )
        model = torch.nn.Linear(8, 8)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
"""
_PICO_CONFIG = {"training": {"micro_batch_size": 12, "seq_length": 256, "gradient_accumulation_steps": 2},
                "dataset": {"num_workers": 3}}


def _pico(tmp_path, data: str = _PICO_DATA) -> dict:
    write(tmp_path, {"pico/__init__.py": "", "pico/data.py": data, "train.py": _PICO_TRAIN})
    (tmp_path / "cfg.json").write_text(json.dumps(_PICO_CONFIG))
    return {}


def test_config_values_given_to_a_project_dataloader_subclass(cli, tmp_path):
    _pico(tmp_path)
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc_per_node", "1", "train.py", "--config", "cfg.json",
                   cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 12
    assert fact(plan, "data.num_workers").value == 3
    pin = fact(plan, "data.pin_memory")
    assert pin.value is True and pin.confidence == "medium"


def test_twin_a_subclass_that_batches_otherwise_gives_no_batch(cli, tmp_path):
    # the subclass hands DataLoader a product, not its parameter: not mapped (and pin_memory is not
    # claimed for a loader whose batch the config does not visibly feed)
    _pico(tmp_path, _PICO_DATA.replace("batch_size=micro_batch_size", "batch_size=micro_batch_size * grad_acc_steps"))
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc_per_node", "1", "train.py", "--config", "cfg.json",
                   cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    # the loader mapping gives nothing; a key named micro_batch_size that the code reads is a
    # guess from its name (adapters/micro_keys.py), never more than low
    assert micro is None or micro.value != 12 or micro.confidence == "low", micro


def test_twin_a_class_that_is_not_a_dataloader_is_not_read(cli, tmp_path):
    _pico(tmp_path, _PICO_DATA.replace("class ChunkLoader(DataLoader)", "class ChunkLoader(object)")
          .replace("super().__init__(data, ", "self.setup(data, "))
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc_per_node", "1", "train.py", "--config", "cfg.json",
                   cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    # the loader mapping gives nothing; a key named micro_batch_size that the code reads is a
    # guess from its name (adapters/micro_keys.py), never more than low
    assert micro is None or micro.value != 12 or micro.confidence == "low", micro
    pin = fact(plan, "data.pin_memory")
    assert pin is None or pin.value is not True, pin


_ARGS_TRAIN = """\
    import argparse

    import torch
    from loaders import ShardLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--micro", type=int, default=4)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
    loader = ShardLoader(args.micro, [], workers=3)
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
"""
_ARGS_LOADER = """\
    import torch


    class ShardLoader(torch.utils.data.DataLoader):
        def __init__(self, micro, dataset, workers, pin=False):
            super().__init__(dataset, batch_size=micro, num_workers=workers, pin_memory=pin)
"""


def test_launch_value_through_a_positional_parameter_of_the_subclass(cli, tmp_path):
    write(tmp_path, {"train.py": _ARGS_TRAIN, "loaders.py": _ARGS_LOADER})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--micro", "16", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 16 and micro.source.kind == "cli"
    assert fact(plan, "data.num_workers").value == 3
    assert fact(plan, "data.pin_memory").value is False


def test_twin_the_parameter_reassigned_in_init_is_not_mapped(cli, tmp_path):
    loader = _ARGS_LOADER.replace("            super()", "            micro = micro * 2\n            super()")
    write(tmp_path, {"train.py": _ARGS_TRAIN, "loaders.py": loader})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--micro", "16", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 16, micro


# SiT's shape: the global batch divided by the world size, bound to a name the DataLoader takes
_SIT = """\
    import argparse

    import torch
    import torch.distributed as dist
    from torch.utils.data import DataLoader


    def main(args):
        dist.init_process_group("nccl")
        local_batch_size = int(args.global_batch_size // dist.get_world_size())
        {extra}
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
        opt = torch.optim.AdamW(model.parameters())
        loader = DataLoader([], batch_size=local_batch_size, num_workers=4, pin_memory=True)
        for x in loader:
            opt.zero_grad()
            model(x).sum().backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--global-batch-size", type=int, default=256)
        main(parser.parse_args())
"""


def test_per_rank_batch_bound_to_a_name(cli, tmp_path):
    write(tmp_path, {"train.py": _SIT.replace("{extra}", "")})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nnodes=1", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 32 and micro.confidence == "medium"
    assert fact(plan, "batch.global").value == 256


def test_twin_the_name_bound_twice_is_not_followed(cli, tmp_path):
    write(tmp_path, {"train.py": _SIT.replace("{extra}", "local_batch_size = local_batch_size // 2")})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nnodes=1", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 32, micro


# the script reassigns an option before the loader reads it (the shape of pytorch/examples
# imagenet/main.py and facebookresearch/moco-v3 @ c349e6e main_moco.py:206-207, generalised: any
# reassignment, not only an in-place division)
_REASSIGN = """\
    import argparse
    import os

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=None)
    parser.add_argument("--global_batch_size", type=int, default=256)
    parser.add_argument("--workers", type=int, default=8)


    def main():
        args = parser.parse_args()
        world_size = int(os.environ["WORLD_SIZE"])
        {reassign}
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        loader = DataLoader([], batch_size=args.batch_size, num_workers=args.workers)
        for x in loader:
            opt.zero_grad()
            model(x).sum().backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def _reassigned(cli, tmp_path, reassign: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _REASSIGN.replace("{reassign}", reassign)})
    return plan_of(cli, "train.py", "--", "python", "train.py", *launch, cwd=tmp_path)


def test_option_reassigned_from_a_run_time_value_is_not_the_launch_value(cli, tmp_path):
    plan = _reassigned(cli, tmp_path, "args.global_batch_size = args.batch_size\n"
                                      "        args.batch_size = args.global_batch_size // world_size",
                       "--batch_size", "64")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 64, micro


def test_option_reassigned_from_known_values_is_computed_at_medium(cli, tmp_path):
    plan = _reassigned(cli, tmp_path, "args.batch_size = args.global_batch_size // 4\n"
                                      "        args.workers *= 2", "--global_batch_size", "128")
    micro = fact(plan, "batch.micro")
    assert micro.value == 32 and micro.confidence == "medium", micro
    workers = fact(plan, "data.num_workers")
    assert workers.value == 16 and workers.confidence == "medium", workers


def test_reassignment_under_an_undecided_test_makes_the_option_unknown(cli, tmp_path):
    plan = _reassigned(cli, tmp_path, "if world_size > 1:\n            args.workers = 2", "--batch_size", "64")
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.value != 8, workers
    assert fact(plan, "batch.micro").value == 64


def test_twin_reassignment_under_a_test_decided_false_keeps_the_launch_value(cli, tmp_path):
    # ``if args.batch_size is None: args.batch_size = ...``: the launch line gives it, so it stays
    plan = _reassigned(cli, tmp_path, "if args.batch_size is None:\n"
                                      "            args.batch_size = args.global_batch_size // world_size",
                       "--batch_size", "64")
    micro = fact(plan, "batch.micro")
    assert micro.value == 64 and micro.source.kind == "cli", micro
    assert fact(plan, "data.num_workers").value == 8


def test_twin_an_unrelated_attribute_reassigned_changes_nothing(cli, tmp_path):
    plan = _reassigned(cli, tmp_path, "args.lr_scaled = args.global_batch_size / 256", "--batch_size", "64")
    micro = fact(plan, "batch.micro")
    assert micro.value == 64 and micro.confidence == "high", micro


# build-nanogpt's shape (karpathy/build-nanogpt @ 6104ab1 train_gpt2.py:273-281,324-328,486-503): the
# world size from the environment torchrun sets, the accumulation derived from a token budget, the
# loss divided by it just before backward() in a micro-step loop, the optimizer stepped outside it
_NANO = """\
    import os

    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    ddp = int(os.environ.get("RANK", -1)) != -1
    if ddp:
        ddp_world_size = int(os.environ["WORLD_SIZE"])
    else:
        ddp_world_size = 1
    total_batch_size = 524288
    B = 16
    T = 1024
    grad_accum_steps = total_batch_size // (B * T * ddp_world_size)
    model = torch.nn.Linear(8, 8).cuda()
    if ddp:
        model = DDP(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(100):
        optimizer.zero_grad()
        for micro_step in range(grad_accum_steps):
            x = torch.randn(B, 8).cuda()
            loss = model(x).sum()
            loss = loss / grad_accum_steps
            loss.backward()
        optimizer.step()
"""


def test_accumulation_from_the_world_size_the_launcher_sets(cli, tmp_path):
    write(tmp_path, {"train.py": _NANO})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--standalone", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 4 and accum.confidence == "medium", accum  # 524288 // (16 * 1024 * 8)
    sharding = fact(plan, "dist.sharding")
    # the DDP wrap sits under a guard decided only by the environment: not high
    assert sharding is None or sharding.confidence != "high", sharding


def test_twin_plain_python_sets_no_world_size(cli, tmp_path):
    # launched with python: nothing is known of WORLD_SIZE (the shell may export it), so no count
    write(tmp_path, {"train.py": _NANO})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or accum.value != 4, accum


# SiT's loop (train.py:181,250-253): an optimizer named ``opt`` stepped after every backward
_EVERY = """\
    import torch

    model = torch.nn.Linear(8, 8)
    {name} = torch.optim.AdamW(model.parameters())
    for x in range(10):
        loss = model(torch.randn(4, 8)).sum()
        {name}.zero_grad()
        loss.backward()
        {name}.step()
"""


def test_step_every_batch_whatever_the_optimizer_is_called(cli, tmp_path):
    write(tmp_path, {"train.py": _EVERY.replace("{name}", "opt")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 1


def test_twin_a_step_of_something_not_an_optimizer_says_nothing(cli, tmp_path):
    text = _EVERY.replace("{name}", "opt").replace("        opt.step()", "        sched.step()")
    write(tmp_path, {"train.py": text.replace("for x in", "sched = make_schedule()\n    for x in")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


# 2U1/Qwen2-VL-Finetune scripts/finetune_lora.sh:18 ``deepspeed src/train/train_sft.py ...``: no --num_gpus,
# --num_nodes, --hostfile or --include: every GPU of this machine (count unknown), one node unless
# /job/hostfile exists (low)
_DS = """\
    import torch

    model = torch.nn.Linear(4, 4)
"""


def test_bare_deepspeed_launcher_is_one_node_low_and_no_world_size(cli, tmp_path):
    write(tmp_path, {"train.py": _DS})
    plan = plan_of(cli, "train.py", "--", "deepspeed", "train.py", cwd=tmp_path)
    nodes = fact(plan, "dist.nodes")
    assert nodes.value == 1 and nodes.confidence == "low", nodes
    assert fact(plan, "dist.world_size") is None  # every local GPU: not 1


def test_twin_deepspeed_with_a_hostfile_claims_no_node_count(cli, tmp_path):
    write(tmp_path, {"train.py": _DS})
    plan = plan_of(cli, "train.py", "--", "deepspeed", "--hostfile", "hosts.txt", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.nodes") is None
    plan = plan_of(cli, "train.py", "--", "deepspeed", "--num_nodes", "2", "--num_gpus", "8", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.nodes").value == 2


# PixArt-alpha/PixArt-sigma @ 1ce521a: train_scripts/train.py:244-284 ``args = parse_args()`` (a function of
# the script returning parser.parse_args()), ``config = read_config(args.config)`` (diffusion/utils/misc.py:21-30
# Config.fromfile in a retry loop), the project's own keys given to Accelerator and the loader builder
_MM_TRAIN = """\
    import argparse

    import torch
    from accelerate import Accelerator
    from helpers import read_config, build_dataloader


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("config", type=str)
        return parser.parse_args()


    if __name__ == "__main__":
        args = parse_args()
        config = read_config(args.config)
        accelerator = Accelerator(mixed_precision=config.mixed_precision,
                                  gradient_accumulation_steps=config.gradient_accumulation_steps)
        model = torch.nn.Linear(4, 4)
        loader = build_dataloader([], num_workers=config.num_workers, batch_size=config.train_batch_size)
"""
_MM_HELPERS = """\
    from mmcv import Config
    from torch.utils.data import DataLoader


    def read_config(file):
        import time
        while True:
            config = Config.fromfile(file)
            if len(config) == 0:
                time.sleep(0.1)
                continue
            break
        return config


    def build_dataloader(dataset, batch_size=256, num_workers=4, shuffle=True, **kwargs):
        return DataLoader(dataset, batch_size=batch_size, num_workers=num_workers, shuffle=shuffle, **kwargs)
"""
_MM_BASE = "mixed_precision = 'fp16'\ngradient_accumulation_steps = 1\nnum_workers = 4\ntrain_batch_size = 32\n"
_MM_CONFIG = "_base_ = ['{base}']\ngradient_accumulation_steps = 3\nnum_workers = 10\n"


def test_python_config_keys_through_project_calls(cli, tmp_path):
    write(tmp_path, {"train.py": _MM_TRAIN, "helpers.py": _MM_HELPERS, "configs/base.py": _MM_BASE,
                     "configs/exp.py": _MM_CONFIG.replace("{base}", "./base.py")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "configs/exp.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 3 and accum.source.path.endswith("exp.py"), accum
    assert fact(plan, "precision.mode").value == "amp_fp16"
    workers = fact(plan, "data.num_workers")
    assert workers.value == 10 and workers.confidence == "medium", workers


def test_twin_python_config_with_an_unread_base_gives_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": _MM_TRAIN, "helpers.py": _MM_HELPERS,
                     "configs/exp.py": _MM_CONFIG.replace("{base}", "./missing.py")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "configs/exp.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or accum.value != 3, accum
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.value != 10, workers
