"""Issue 15, branch jobs114: the DeiT/MAE/SLIP submitit launcher (preflight/delegate.py ``submitted_callee``,
adapters/submitit_tasks.py ``_launcher_own``) and PyTorch's ZeroRedundancyOptimizer's ``optimizer_class``
(adapters/zero_redundancy.py). Fixtures of our own copying real shapes: facebookresearch/SLIP @ c6faf5d
``run_with_submitit.py`` (``parser = argparse.ArgumentParser(..., parents=[main.get_args_parser()])``,
``--ngpus``/``--nodes``, ``trainer = Trainer(args)``, ``executor.submit(trainer)``, ``Trainer.__call__`` doing
``import main as slip; slip.main(self.args)``) over ``main.py:77-78`` (``--world-size`` "number of nodes for
distributed training"); facebookresearch/mae ``submitit_pretrain.py`` (``import main_pretrain as trainer``,
``trainer.main(self.args)``); karpathy/llm.c ``train_gpt2.py`` (``ZeroRedundancyOptimizer(...,
optimizer_class=torch.optim.AdamW)``). Must-read cases and silent twins."""

from __future__ import annotations

import ast
from pathlib import Path

from plan_helpers import fact, plan_of, write

from preflight.delegate import submitted_callee

LAUNCHER = """\
    import argparse
    import uuid

    import main_pretrain
    import submitit


    def parse_args():
        parser = main_pretrain.get_args_parser()
        parser = argparse.ArgumentParser("Submitit for pre-training", parents=[parser])
        parser.add_argument("--ngpus", default=8, type=int, help="Number of gpus to request on each node")
        parser.add_argument("--nodes", default=8, type=int, help="Number of nodes to request")
        return parser.parse_args()


    class Trainer(object):
        def __init__(self, args):
            self.args = args

        def __call__(self):
            import main_pretrain

            main_pretrain.main(self.args)


    def main():
        args = parse_args()
        executor = submitit.AutoExecutor(folder="jobs", slurm_max_num_timeout=30)
        num_gpus_per_node = args.ngpus
        executor.update_parameters(gpus_per_node=num_gpus_per_node, tasks_per_node=num_gpus_per_node,
                                   cpus_per_task=10, nodes=args.nodes)
        args.dist_url = "file:///tmp/" + uuid.uuid4().hex
        trainer = Trainer(args)
        job = executor.submit(trainer)
        print(job.job_id)


    if __name__ == "__main__":
        main()
"""

TRAIN = """\
    import argparse

    import torch
    from torch.distributed.optim import ZeroRedundancyOptimizer


    def get_args_parser():
        parser = argparse.ArgumentParser("pre-training", add_help=False)
        parser.add_argument("--batch-size", default=32, type=int)
        parser.add_argument("--use-zero", action="store_true")
        parser.add_argument("--world-size", default=1, type=int, help="number of nodes for distributed training")
        parser.add_argument("-j", "--workers", default=10, type=int)
        return parser


    def main(args):
        torch.distributed.init_process_group(backend="nccl", init_method=args.dist_url)
        model = torch.nn.Linear(4, 4).cuda()
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])
        if args.use_zero:
            optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-3)
        else:
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size,
                                             num_workers=args.workers)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
"""


def _plan(cli, tmp_path, launcher=LAUNCHER, train=TRAIN, *args):
    write(tmp_path, {"run_with_submitit.py": launcher, "main_pretrain.py": train})
    return plan_of(cli, "run_with_submitit.py", "--", *args, cwd=tmp_path)


def _callee(tmp_path: Path, launcher: str) -> object:
    write(tmp_path, {"run_with_submitit.py": launcher, "main_pretrain.py": TRAIN})
    path = tmp_path / "run_with_submitit.py"
    return submitted_callee(ast.parse(path.read_text()), path)


def test_instance_handed_to_submit_runs_the_imported_module(tmp_path):
    got = _callee(tmp_path, LAUNCHER)
    assert got is not None and Path(str(got)).name == "main_pretrain.py"


def test_module_alias_call_in_call_is_followed(tmp_path):
    # mae: ``import main_pretrain as trainer`` at the top, ``trainer.main(self.args)`` in ``__call__``
    launcher = LAUNCHER.replace("            import main_pretrain\n\n", "") \
        .replace("    import main_pretrain\n    import submitit", "    import main_pretrain as trainer_mod\n    import submitit") \
        .replace("main_pretrain.main(self.args)", "trainer_mod.main(self.args)") \
        .replace("parser = main_pretrain.get_args_parser()", "parser = trainer_mod.get_args_parser()")
    got = _callee(tmp_path, launcher)
    assert got is not None and Path(str(got)).name == "main_pretrain.py"


def test_twin_instance_never_submitted_is_not_followed(tmp_path):
    assert _callee(tmp_path, LAUNCHER.replace("job = executor.submit(trainer)", "job = executor")) is None


def test_twin_library_module_call_is_not_followed(tmp_path):
    # ``__call__`` calls a library module's function: not the project's work
    launcher = LAUNCHER.replace("            import main_pretrain\n\n            main_pretrain.main(self.args)",
                                "            import json\n\n            json.dumps(vars(self.args))")
    assert _callee(tmp_path, launcher) is None


def test_launcher_reads_the_training_module_with_the_line_arguments(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCHER, TRAIN, "--batch-size", "8", "--use-zero", "--nodes", "4")
    assert fact(plan, "batch.micro").value == 8
    assert fact(plan, "data.num_workers").value == 10
    # the launcher's own --nodes, not the inherited --world-size ("number of nodes for distributed training")
    assert fact(plan, "dist.world_size").value == 32
    assert fact(plan, "dist.devices_per_node").value == 8


def test_zero_redundancy_names_its_inner_optimizer(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCHER, TRAIN, "--use-zero")
    got = fact(plan, "optimizer.name")
    assert got is not None and got.value == "AdamW" and "optimizer_class" in got.source.detail, got


def test_twin_zero_redundancy_with_an_unknown_class_names_nothing(cli, tmp_path):
    train = TRAIN.replace("optimizer_class=torch.optim.AdamW", "optimizer_class=build_class(args)") \
        .replace("optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)", "optimizer = None")
    plan = _plan(cli, tmp_path, LAUNCHER, train, "--use-zero")
    got = fact(plan, "optimizer.name")
    assert got is None or "optimizer_class" not in (got.source.detail or "")


def test_twin_two_node_options_in_the_launcher_itself_stay_unread(cli, tmp_path):
    # both node options declared by the launcher: no way to tell which the executor takes from the help alone
    launcher = LAUNCHER.replace(
        '    return parser.parse_args()',
        '    parser.add_argument("--num-nodes", default=2, type=int, help="Number of nodes to request")\n'
        '        return parser.parse_args()')
    plan = _plan(cli, tmp_path, launcher, TRAIN, "--nodes", "4")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 32
