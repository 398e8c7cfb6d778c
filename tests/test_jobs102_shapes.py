"""Shapes of real jobs (issue 15, jobs set 44 worked in-sample): fixtures of our own in the shape of the cited
projects, each a must-read case and a silent twin."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# lucidrains/lightweight-gan @ efbec45 lightweight_gan/cli.py:180-192: a ``fire.Fire`` entry that spawns one
# process per visible GPU only with ``--multi_gpus`` (default False), after an early return that trains in
# the launching process; lightweight_gan/lightweight_gan.py:1150-1155 wraps in DDP only ``if self.is_ddp``
FIRE_SPAWN = """\
    import fire
    import torch
    import torch.multiprocessing as mp
    from torch.nn.parallel import DistributedDataParallel as DDP


    def run_training(rank, world_size, batch_size):
        model = torch.nn.Linear(8, 8)
        optimizer = torch.optim.Adam(model.parameters())
        for x in torch.utils.data.DataLoader([], batch_size=batch_size):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    def train_from_folder(batch_size=10, multi_gpus=False):
        world_size = torch.cuda.device_count()

        if world_size == 1 or not multi_gpus:
            run_training(0, 1, batch_size)
            return

        mp.spawn(run_training, args=(world_size, batch_size), nprocs=world_size, join=True)


    def main():
        fire.Fire(train_from_folder)


    if __name__ == "__main__":
        main()
"""


def test_spawn_skipped_by_an_early_return_is_one_process(cli, tmp_path):
    write(tmp_path, {"cli.py": FIRE_SPAWN})
    plan = plan_of(cli, "--", "python", "cli.py", "--batch-size", "16", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 1, world
    assert fact(plan, "dist.nodes").value == 1


def test_twin_spawn_taken_with_its_count_unknown_says_nothing(cli, tmp_path):
    write(tmp_path, {"cli.py": FIRE_SPAWN})
    plan = plan_of(cli, "--", "python", "cli.py", "--multi_gpus", cwd=tmp_path)
    assert fact(plan, "dist.world_size") is None


# lightweight_gan/lightweight_gan.py:1150-1155: the DDP wrappers are built ``if self.is_ddp:`` in a local module
TRAINER = """\
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Trainer:
        def __init__(self, rank=0, is_ddp=False):
            self.is_ddp = is_ddp
            self.model = torch.nn.Linear(8, 8)
            if {guard}:
                self.model_ddp = DDP(self.model, device_ids=[rank])
"""
FIRE_SPAWN_TRAINER = FIRE_SPAWN.replace("import fire\n", "import fire\n    from trainer import Trainer\n").replace(
    "        model = torch.nn.Linear(8, 8)\n", "        model = Trainer(rank, is_ddp=world_size > 1).model\n")


def test_ddp_wrap_under_an_is_ddp_flag_is_not_built_by_one_process(cli, tmp_path):
    write(tmp_path, {"cli.py": FIRE_SPAWN_TRAINER, "trainer.py": TRAINER.format(guard="self.is_ddp")})
    plan = plan_of(cli, "--", "python", "cli.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "none", sharding


def test_twin_ddp_wrap_under_another_flag_stays_ddp(cli, tmp_path):
    write(tmp_path, {"cli.py": FIRE_SPAWN_TRAINER, "trainer.py": TRAINER.format(guard="self.sync_bn")})
    plan = plan_of(cli, "--", "python", "cli.py", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"
