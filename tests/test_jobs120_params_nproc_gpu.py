"""Branch jobs120 (set 47 reading, in-sample): fixtures of our own in the shape of VentusAislant/MyDemos
@ c75bd15 my_demos/DDP_demos/train4.sh and DDP4_fsdp_torchrun_training.py:

* ``export CUDA_VISIBLE_DEVICES=1,4`` then ``torchrun --standalone --nproc_per_node=gpu``: one process per
  visible device (adapters/visible_devices.py);
* an optimizer class and an FSDP sharding strategy handed to ``Trainer.__init__`` by parameter, the strategy
  picked by a helper's ``if policy == 'zero3': return ...`` chain (adapters/param_passed.py)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse

    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import ShardingStrategy


    class Trainer:
        def __init__(self, model, optimizer_cls, lr, sharding_strategy):
            self.model = FSDP(module=model, sharding_strategy=sharding_strategy)
            self.optimizer = optimizer_cls(params=model.parameters(), lr=lr)

        def train(self, data):
            for x in data:
                self.optimizer.zero_grad()
                loss = self.model(x).sum()
                loss.backward()
                self.optimizer.step()


    def get_sharding_strategy(policy):
        if policy == 'zero2':
            return ShardingStrategy.SHARD_GRAD_OP
        elif policy == 'zero3':
            return ShardingStrategy.FULL_SHARD
        elif policy == 'zero1':
            return ShardingStrategy.NO_SHARD


    def main(args):
        torch.distributed.init_process_group(backend="nccl")
        model = torch.nn.Linear(4, 4)
        optimizer_cls = {opt}
        sharding_strategy = get_sharding_strategy(args.sharding_strategy)
        trainer = Trainer(model=model, optimizer_cls=optimizer_cls, lr=args.lr,
                          sharding_strategy=sharding_strategy)
        {second}
        trainer.train([])


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=1e-3)
        parser.add_argument("--sharding_strategy", type=str, default="zero2")
        main(parser.parse_args())
    """


def _plan(cli, tmp_path: Path, *, launch: str, opt: str = "torch.optim.Adam", second: str = "pass",
          flags: str = "--sharding_strategy zero3") -> dict:
    write(tmp_path, {"train.py": TRAIN.format(opt=opt, second=second),
                     "train.sh": f"export CUDA_VISIBLE_DEVICES=1,4\n{launch} train.py {flags}\n"})
    return plan_of(cli, "train.sh", cwd=tmp_path)


def test_nproc_gpu_counts_the_visible_devices(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=gpu")
    per_node = fact(plan, "dist.devices_per_node")
    assert per_node is not None and per_node.value == 2 and per_node.confidence == "medium"
    assert winner(plan, "dist.world_size") == 2


def test_nproc_number_is_what_the_flag_says_whatever_is_visible(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=3")
    assert winner(plan, "dist.devices_per_node") == 3 and winner(plan, "dist.world_size") == 3


def test_class_and_strategy_passed_by_parameter_are_read(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=gpu")
    assert winner(plan, "optimizer.name") == "Adam"
    assert winner(plan, "dist.sharding") == "fsdp_full"  # 'zero3' picks FULL_SHARD here


def test_helper_arm_follows_the_flag(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=gpu", flags="")
    assert winner(plan, "dist.sharding") == "fsdp_grad_op"  # the default 'zero2'


def test_two_calls_that_disagree_leave_the_class_and_strategy_unknown(cli, tmp_path: Path) -> None:
    second = ("Trainer(model=model, optimizer_cls=torch.optim.SGD, lr=args.lr, "
              "sharding_strategy=ShardingStrategy.NO_SHARD)")
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=gpu", second=second)
    assert winner(plan, "optimizer.name") is None
    assert winner(plan, "dist.sharding") is None


def test_a_class_name_bound_twice_is_not_followed(cli, tmp_path: Path) -> None:
    second = "optimizer_cls = torch.optim.SGD"
    plan = _plan(cli, tmp_path, launch="torchrun --standalone --nproc_per_node=gpu", second=second)
    assert winner(plan, "optimizer.name") is None
