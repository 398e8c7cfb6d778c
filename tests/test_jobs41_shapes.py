"""Set 24's shapes (branch jobs41): fixtures of our own rebuilding the real code's shape, each with
a must-read test and a twin that must stay as before.

- the icefall spawn idiom with a count of one (lifeiteng/vall-e @ 9c69096
  ``valle/bin/trainer.py:88-93,1149-1154``: ``world_size = args.world_size``, ``if world_size > 1:
  mp.spawn(run, nprocs=world_size)`` else ``run(rank=0, world_size=1, ...)``, while ``run`` and two
  other functions take a parameter named ``world_size``);
- a model whose constructor casts every module but BatchNorm to half (KellerJordan/cifar10-airbench @
  f1c599c ``airbench94_muon.py:234-238``), trained with no autocast;
- a spawn count stored on an object the script built from click options (NVlabs/stylegan3 @ c233a91
  ``train.py:93-98,130,187-205``: ``opts = dnnlib.EasyDict(kwargs)``, ``c.num_gpus = opts.gpus``,
  ``launch_training(c=c, ...)`` spawning ``nprocs=c.num_gpus``);
- torchrun of a script that builds an ``Accelerator`` and only reads ``accelerator.state.deepspeed_plugin``
  under a DeepSpeed check (huggingface/open-muse @ 64e1afe ``training/train_maskgit_imagenet.py:152-161,305``):
  DistributedDataParallel;
- ``@torch.compile`` on a fused-activation method of a feed-forward module (Alpha-VLLM/Lumina-T2X @
  1c60696 ``Next-DiT-ImageNet/models/models.py:463-465``): no compiled model;
- ``mpiexec -n 8 python ...`` typed with no host list (openai/consistency_models @ e32b69e
  ``scripts/launch.sh:5``): one machine.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

ICEFALL = """\
    import argparse

    import torch
    import torch.multiprocessing as mp
    from torch.nn.parallel import DistributedDataParallel as DDP


    def get_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument("--world-size", type=int, default=1, help="Number of GPUs for DDP training.")
        return parser


    def train_one_epoch(model, optimizer, loader, world_size: int = 1):
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    def run(rank, world_size, args):
        if world_size > 1:
            torch.distributed.init_process_group("nccl", rank=rank, world_size=world_size)
        model = torch.nn.Linear(8, 8).cuda()
        if world_size > 1:
            model = DDP(model, device_ids=[rank])
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        train_one_epoch(model, optimizer, torch.utils.data.DataLoader([], batch_size=8), world_size=world_size)


    def main():
        parser = get_parser()
        args = parser.parse_args()
        world_size = args.world_size
        assert world_size >= 1
        if world_size > 1:
            mp.spawn(run, args=(world_size, args), nprocs=world_size, join=True)
        else:
            run(rank=0, world_size=1, args=args)


    if __name__ == "__main__":
        main()
"""


def test_spawn_skipped_with_a_count_of_one_is_one_process(cli, tmp_path):
    write(tmp_path, {"trainer.py": ICEFALL})
    plan = plan_of(cli, "--", "python", "trainer.py", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "dist.nodes").value == 1
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "none", sharding


def test_twin_spawn_with_a_count_of_four_is_four_processes(cli, tmp_path):
    write(tmp_path, {"trainer.py": ICEFALL})
    plan = plan_of(cli, "--", "python", "trainer.py", "--world-size", "4", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 4
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "none", sharding


def test_twin_a_name_bound_twice_in_the_function_is_not_read(cli, tmp_path):
    twice = ICEFALL.replace("        assert world_size >= 1\n",
                            "        assert world_size >= 1\n"
                            "        if args.auto:\n"
                            "            world_size = torch.cuda.device_count()\n")
    assert twice != ICEFALL
    write(tmp_path, {"trainer.py": twice})
    plan = plan_of(cli, "--", "python", "trainer.py", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is None or world.source.key != "nprocs", world


AIRBENCH = """\
    import torch
    from torch import nn


    class ConvGroup(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
            self.norm = nn.BatchNorm2d(cout)

        def forward(self, x):
            return self.norm(self.conv(x))


    class CifarNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(ConvGroup(3, 64), ConvGroup(64, 256))
            self.head = nn.Linear(256, 10, bias=False)
            for mod in self.modules():
                if isinstance(mod, nn.BatchNorm2d):
                    mod.float()
                else:
                    mod.half()

        def forward(self, x):
            return self.head(self.layers(x).mean((2, 3)))


    def main(model):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        model = CifarNet().cuda().to(memory_format=torch.channels_last)
        main(model)
"""


def test_model_cast_to_half_in_its_constructor_is_fp16(cli, tmp_path):
    write(tmp_path, {"airbench.py": AIRBENCH})
    plan = plan_of(cli, "--", "python", "airbench.py", cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "fp16", mode
    assert mode.source.line == 40 and "airbench.py:24" in mode.source.detail  # built at 40, cast at 24


def test_twin_a_helper_attribute_cast_leaves_the_model_fp32(cli, tmp_path):
    helper = AIRBENCH.replace("""            for mod in self.modules():
                if isinstance(mod, nn.BatchNorm2d):
                    mod.float()
                else:
                    mod.half()
""", """            self.head.half()
""")
    assert helper != AIRBENCH
    write(tmp_path, {"airbench.py": helper})
    plan = plan_of(cli, "--", "python", "airbench.py", cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "fp32", mode


def test_twin_autocast_keeps_its_reading(cli, tmp_path):
    amp = AIRBENCH.replace("            loss = torch.nn.functional.cross_entropy(model(x), y)\n",
                           "            with torch.autocast('cuda', dtype=torch.bfloat16):\n"
                           "                loss = torch.nn.functional.cross_entropy(model(x), y)\n")
    assert amp != AIRBENCH
    write(tmp_path, {"airbench.py": amp})
    plan = plan_of(cli, "--", "python", "airbench.py", cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_bf16", mode


MPI = """\
    import torch
    from mpi4py import MPI

    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.Adam(model.parameters())
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""


def test_mpiexec_without_hosts_is_one_machine(cli, tmp_path):
    write(tmp_path, {"train.py": MPI})
    plan = plan_of(cli, "--", "mpiexec", "-n", "8", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 8
    nodes = fact(plan, "dist.nodes")
    assert nodes is not None and nodes.value == 1 and nodes.confidence == "medium", nodes
    assert fact(plan, "dist.devices_per_node").value == 8


def test_twin_mpiexec_with_a_hostfile_or_from_sbatch_says_no_node_count(cli, tmp_path):
    write(tmp_path, {"train.py": MPI})
    plan = plan_of(cli, "--", "mpirun", "-np", "16", "--hostfile", "hosts.txt", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 16
    assert fact(plan, "dist.nodes") is None
    write(tmp_path, {"job.sbatch": """\
        #!/bin/bash
        #SBATCH --ntasks=16
        #SBATCH --gres=gpu:8
        mpiexec -n 16 python train.py
    """})
    plan = plan_of(cli, "job.sbatch", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 16  # the line was followed
    nodes = fact(plan, "dist.nodes")
    assert nodes is None or nodes.value != 1 or "host list" not in (nodes.source.detail or ""), nodes


STYLEGAN = """\
    import click
    import torch

    import dnnlib


    def subprocess_fn(rank, c):
        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    def launch_training(c, desc, outdir):
        torch.multiprocessing.set_start_method('spawn')
        if c.num_gpus == 1:
            subprocess_fn(rank=0, c=c)
        else:
            torch.multiprocessing.spawn(fn=subprocess_fn, args=(c,), nprocs=c.num_gpus)


    @click.command()
    @click.option('--outdir', help='Where to save the results', metavar='DIR', required=True)
    @click.option('--gpus', help='Number of GPUs to use', metavar='INT', type=click.IntRange(min=1), required=True)
    @click.option('--batch', help='Total batch size', metavar='INT', type=click.IntRange(min=1), required=True)
    def main(**kwargs):
        opts = dnnlib.EasyDict(kwargs)
        c = dnnlib.EasyDict()
        c.num_gpus = opts.gpus
        c.batch_size = opts.batch
        desc = f'gpus{c.num_gpus:d}'
        launch_training(c=c, desc=desc, outdir=opts.outdir)


    if __name__ == "__main__":
        main()
"""


def test_spawn_count_stored_on_an_object_from_click_options(cli, tmp_path):
    write(tmp_path, {"train.py": STYLEGAN, "dnnlib/__init__.py": "class EasyDict(dict):\n    pass\n"})
    plan = plan_of(cli, "--", "python", "train.py", "--outdir=runs", "--gpus=8", "--batch=32", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 8
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "dist.devices_per_node").value == 8


def test_twin_one_gpu_is_one_process_and_a_second_store_says_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": STYLEGAN, "dnnlib/__init__.py": "class EasyDict(dict):\n    pass\n"})
    plan = plan_of(cli, "--", "python", "train.py", "--outdir=runs", "--gpus=1", "--batch=32", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 1
    twice = STYLEGAN.replace("        c.batch_size = opts.batch\n",
                             "        c.batch_size = opts.batch\n"
                             "        if torch.cuda.device_count() > 1:\n"
                             "            c.num_gpus = torch.cuda.device_count()\n")
    assert twice != STYLEGAN
    write(tmp_path, {"train.py": twice})
    plan = plan_of(cli, "--", "python", "train.py", "--outdir=runs", "--gpus=8", "--batch=32", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is None or world.source.key != "nprocs", world


MUSE = """\
    import torch
    from accelerate import Accelerator
    from accelerate.utils import DistributedType


    def main():
        accelerator = Accelerator(gradient_accumulation_steps=1, mixed_precision="bf16")
        if accelerator.distributed_type == DistributedType.DEEPSPEED:
            accelerator.state.deepspeed_plugin.deepspeed_config["train_micro_batch_size_per_gpu"] = 8
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer = accelerator.prepare(model, optimizer)
        for x in loader:
            accelerator.backward(model(x).sum())
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_torchrun_of_an_accelerator_script_is_ddp(cli, tmp_path):
    write(tmp_path, {"train.py": MUSE})
    plan = plan_of(cli, "--", "python", "-m", "torch.distributed.run", "--nproc_per_node", "8", "train.py",
                   cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 8
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "ddp" and sharding.confidence == "medium", sharding


def test_twin_an_accelerator_given_a_deepspeed_plugin_is_not_ddp(cli, tmp_path):
    plugin = MUSE.replace('mixed_precision="bf16")',
                          'mixed_precision="bf16", deepspeed_plugin=DeepSpeedPlugin(zero_stage=2))')
    assert plugin != MUSE
    write(tmp_path, {"train.py": plugin})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "train.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "ddp", sharding


LUMINA_MODEL = """\
    import torch
    import torch.nn.functional as F
    from torch import nn


    class FeedForward(nn.Module):
        def __init__(self, dim, hidden):
            super().__init__()
            self.w1, self.w2, self.w3 = nn.Linear(dim, hidden), nn.Linear(hidden, dim), nn.Linear(dim, hidden)

        @torch.compile
        def _forward_silu_gating(self, x1, x3):
            return F.silu(x1) * x3

        def forward(self, x):
            return self.w2(self._forward_silu_gating(self.w1(x), self.w3(x)))
"""

LUMINA_TRAIN = """\
    import torch

    from models import FeedForward

    model = FeedForward(8, 32).cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""


def _compiled(cli, tmp_path, model_text: str):
    write(tmp_path, {"train.py": LUMINA_TRAIN, "models.py": model_text})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    return fact(plan, "compile.enabled")


def test_a_compiled_activation_method_is_no_compiled_model(cli, tmp_path):
    got = _compiled(cli, tmp_path, LUMINA_MODEL)
    assert got is not None and got.value is False, got


def test_twin_a_compiled_method_that_calls_a_submodule_keeps_compile_unknown(cli, tmp_path):
    calls = LUMINA_MODEL.replace("            return F.silu(x1) * x3\n", "            return self.w2(F.silu(x1) * x3)\n")
    assert calls != LUMINA_MODEL
    got = _compiled(cli, tmp_path, calls)
    assert got is None or got.value is not False, got


def test_accumulate_grad_steps_option_is_the_accumulation(cli, tmp_path):
    accum = ICEFALL.replace(
        '        parser.add_argument("--world-size", type=int, default=1, help="Number of GPUs for DDP training.")\n',
        '        parser.add_argument("--world-size", type=int, default=1, help="Number of GPUs for DDP training.")\n'
        '        parser.add_argument("--accumulate-grad-steps", type=int, default=1,\n'
        '                            help="update gradient when batch_idx_train %% accumulate_grad_steps == 0.")\n')
    assert accum != ICEFALL
    write(tmp_path, {"trainer.py": accum})
    plan = plan_of(cli, "--", "python", "trainer.py", "--accumulate-grad-steps", "4", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 4
    write(tmp_path, {"trainer.py": ICEFALL})  # twin: no such option, no accumulation read from the line
    plan = plan_of(cli, "--", "python", "trainer.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 4, got


ICEFALL_PARAMS = """\
    import argparse

    import torch


    class AttributeDict(dict):
        def __getattr__(self, key):
            return self[key]


    def get_params():
        return AttributeDict({"batch_idx_train": 0, "log_interval": 100})


    def run(rank, world_size, args):
        params = get_params()
        params.update(vars(args))
        model = torch.nn.Linear(4, 4).cuda()
        if params.optimizer_name == "SGD":
            optimizer = torch.optim.SGD(model.parameters(), lr=params.base_lr)
        else:
            optimizer = torch.optim.AdamW(model.parameters(), lr=params.base_lr)
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--optimizer-name", type=str, default="SGD")
        parser.add_argument("--base-lr", type=float, default=0.05)
        args = parser.parse_args()
        run(rank=0, world_size=1, args=args)


    if __name__ == "__main__":
        main()
"""


def test_params_updated_from_the_options_read_their_values(cli, tmp_path):
    write(tmp_path, {"trainer.py": ICEFALL_PARAMS})
    plan = plan_of(cli, "--", "python", "trainer.py", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "SGD"
    plan = plan_of(cli, "--", "python", "trainer.py", "--optimizer-name", "AdamW", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "AdamW"


def test_twin_params_not_updated_from_the_options_say_nothing(cli, tmp_path):
    plain = ICEFALL_PARAMS.replace("        params.update(vars(args))\n", "")
    assert plain != ICEFALL_PARAMS
    write(tmp_path, {"trainer.py": plain})
    plan = plan_of(cli, "--", "python", "trainer.py", cwd=tmp_path)
    got = fact(plan, "optimizer.name")
    assert got is None or got.confidence == "low" or got.value not in ("SGD", "AdamW"), got
