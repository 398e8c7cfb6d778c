"""Set 24's shapes (branch jobs41): fixtures of our own rebuilding the real code's shape, each with
a must-read test and a twin that must stay as before.

- the icefall spawn idiom with a count of one (lifeiteng/vall-e @ 9c69096
  ``valle/bin/trainer.py:88-93,1149-1154``: ``world_size = args.world_size``, ``if world_size > 1:
  mp.spawn(run, nprocs=world_size)`` else ``run(rank=0, world_size=1, ...)``, while ``run`` and two
  other functions take a parameter named ``world_size``);
- a model whose constructor casts every module but BatchNorm to half (KellerJordan/cifar10-airbench @
  f1c599c ``airbench94_muon.py:234-238``), trained with no autocast;
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
