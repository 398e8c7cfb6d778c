"""A submitit launcher with one task per GPU (adapters/submitit_tasks.py). Fixtures of our own copying the
shape of facebookresearch/mae ``submitit_pretrain.py`` (``--ngpus`` "Number of gpus to request on each node",
``--nodes`` "Number of nodes to request", ``executor.update_parameters(gpus_per_node=num_gpus_per_node,
tasks_per_node=num_gpus_per_node, nodes=nodes, ...)``) and of facebookresearch/dinov2 @ b8931f7
(``dinov2/run/submit.py:36-49``, the parameters built in ``dinov2/utils/cluster.py:74-85``): must-read cases
and silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LAUNCHER = """\
    import argparse

    import submitit

    import main_pretrain as trainer


    def parse_args():
        parser = argparse.ArgumentParser("Submitit for MAE pretrain")
        parser.add_argument("--ngpus", default=8, type=int, help="Number of gpus to request on each node")
        parser.add_argument("--nodes", default=2, type=int, help="Number of nodes to request")
        parser.add_argument("--timeout", default=4320, type=int, help="Duration of the job")
        return parser.parse_args()


    class Trainer(object):
        def __init__(self, args):
            self.args = args

        def __call__(self):
            trainer.main(self.args)


    def main():
        args = parse_args()
        executor = submitit.AutoExecutor(folder="out", slurm_max_num_timeout=30)
        num_gpus_per_node = args.ngpus
        nodes = args.nodes
        executor.update_parameters(
            mem_gb=40 * num_gpus_per_node,
            gpus_per_node=num_gpus_per_node,
            tasks_per_node=num_gpus_per_node,
            cpus_per_task=10,
            nodes=nodes,
            timeout_min=args.timeout,
        )
        executor.submit(Trainer(args))


    if __name__ == "__main__":
        main()
"""

TRAIN = """\
    import torch


    def main(args):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        for _ in range(10):
            opt.step()
"""


def _plan(cli, tmp_path, launcher, *args):
    write(tmp_path, {"submitit_pretrain.py": launcher, "main_pretrain.py": TRAIN})
    return plan_of(cli, "submitit_pretrain.py", "--", *args, cwd=tmp_path)


def test_one_task_per_gpu_gives_devices_and_world(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCHER, "--nodes", "4", "--ngpus", "4")
    assert fact(plan, "dist.devices_per_node").value == 4
    world = fact(plan, "dist.world_size")
    assert world.value == 16 and world.confidence == "medium"


def test_default_gpus_per_node_is_low(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCHER, "--nodes", "4")
    got = fact(plan, "dist.devices_per_node")
    assert got.value == 8 and got.confidence == "low"
    assert fact(plan, "dist.world_size").value == 32


def test_one_task_per_node_is_not_read(cli, tmp_path):
    """Silent twin: tasks_per_node=1 (one process per node that spawns its own): no devices or world."""
    plan = _plan(cli, tmp_path, LAUNCHER.replace("tasks_per_node=num_gpus_per_node", "tasks_per_node=1"),
                 "--nodes", "4", "--ngpus", "4")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 16
    got = fact(plan, "dist.devices_per_node")
    assert got is None or got.adapter != "cliargs"


def test_without_submitit_the_options_are_not_read(cli, tmp_path):
    """Silent twin: the same options in a script that submits nothing with submitit."""
    launcher = LAUNCHER.replace("import submitit\n", "import mysched as submitit\n")
    plan = _plan(cli, tmp_path, launcher, "--nodes", "4", "--ngpus", "4")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 16
