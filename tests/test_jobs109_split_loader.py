"""A loader batch split by the process count a trainer object holds, divided by the plan's world size (issue 15,
branch jobs109; adapters/config_object_per_rank.py ``split_loader``/``split_micro``). Shape: lucidrains/lightweight-gan
@ efbec45 ``lightweight_gan/cli.py:38-56,183-192`` (``run_training(0, 1, model_args, ...)`` unless ``--multi-gpus``;
``model_args.update(is_ddp=..., rank=rank, world_size=world_size)``; ``Trainer(**model_args)``) and
``lightweight_gan/lightweight_gan.py:1186-1190`` (``sampler = DistributedSampler(self.dataset, rank=self.rank,
num_replicas=self.world_size, shuffle=True) if self.is_ddp else None``; ``DataLoader(..., batch_size=math.ceil(
self.batch_size / self.world_size), ...)``), the same lines as lucidrains/stylegan2-pytorch. The fixtures are our
own, written to that shape, beside twins that state nothing."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

CLI = """\
    import fire
    import torch
    import torch.multiprocessing as mp
    from trainer import Trainer


    def run_training(rank, world_size, model_args):
        is_ddp = world_size > 1
        model_args.update(is_ddp=is_ddp, rank=rank, world_size=world_size)
        model = Trainer(**model_args)
        model.set_data_src("./images")
        for _ in range(100):
            model.train()


    def train_from_folder(data="./data", batch_size=4, multi_gpus=False):
        model_args = dict(batch_size=batch_size)
        world_size = torch.cuda.device_count()
        if world_size == 1 or not multi_gpus:
            run_training(0, 1, model_args)
            return
        mp.spawn(run_training, args=(world_size, model_args), nprocs=world_size, join=True)


    def main():
        fire.Fire(train_from_folder)


    if __name__ == "__main__":
        main()
"""

TRAINER = """\
    import math
    import torch
    from torch.utils.data import DataLoader, DistributedSampler


    class Trainer():
        def __init__(self, batch_size=4, rank=0, world_size=1, is_ddp=False):
            self.batch_size = batch_size
            self.rank = rank
            self.world_size = world_size
            self.is_ddp = is_ddp
            self.model = torch.nn.Linear(4, 4)
            self.opt = torch.optim.Adam(self.model.parameters())

        def set_data_src(self, folder):
            self.dataset = torch.utils.data.TensorDataset(torch.zeros(64, 4))
            sampler = DistributedSampler(self.dataset, rank=self.rank, num_replicas=self.world_size,
                                         shuffle=True) if self.is_ddp else None
            dataloader = DataLoader(self.dataset, batch_size=math.ceil(self.batch_size / self.world_size),
                                    sampler=sampler, shuffle=not self.is_ddp, drop_last=True)
            self.loader = iter(dataloader)

        def train(self):
            (x,) = next(self.loader)
            loss = self.model(x).mean()
            loss.backward()
            self.opt.step()
"""


def test_one_process_loads_the_whole_batch(cli, tmp_path) -> None:
    write(tmp_path, {"cli.py": CLI, "trainer.py": TRAINER})
    plan = plan_of(cli, "cli.py", "--", "--batch-size", "16", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 16 and got.confidence == "medium"
    assert "math.ceil(self.batch_size / self.world_size)" in (got.source.detail or "")


def test_without_a_known_world_size_nothing_is_divided(cli, tmp_path) -> None:
    # ``--multi-gpus``: one process per visible GPU, a count of the machine, not of the job's files
    write(tmp_path, {"cli.py": CLI, "trainer.py": TRAINER})
    plan = plan_of(cli, "cli.py", "--", "--batch-size", "16", "--multi-gpus", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None
    assert winner(plan, "batch.micro") is None


def test_a_divisor_no_sampler_ties_to_the_processes_stays_unknown(cli, tmp_path) -> None:
    # ``self.world_size`` handed to nothing that counts processes: its meaning is not read
    trainer = TRAINER.replace("num_replicas=self.world_size", "num_replicas=None")
    write(tmp_path, {"cli.py": CLI, "trainer.py": trainer})
    plan = plan_of(cli, "cli.py", "--", "--batch-size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


def test_a_divisor_of_another_name_stays_unknown(cli, tmp_path) -> None:
    # a number of GPUs the trainer keeps (``self.num_gpus``), even beside a sampler: not the process count read here
    trainer = TRAINER.replace("math.ceil(self.batch_size / self.world_size)", "math.ceil(self.batch_size / self.n_dev)") \
        .replace("self.is_ddp = is_ddp\n", "self.is_ddp = is_ddp\n            self.n_dev = torch.cuda.device_count()\n")
    write(tmp_path, {"cli.py": CLI, "trainer.py": trainer})
    plan = plan_of(cli, "cli.py", "--", "--batch-size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
