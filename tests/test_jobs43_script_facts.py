"""Single facts of a self-contained training script (issue 15, set 25: facebookresearch/barlowtwins
``main.py`` @ 8e8d284): the file's own ``class LARS(optim.Optimizer)`` is the optimizer, and a
loader batch of ``args.batch_size // args.world_size`` where ``args.world_size`` is what
``init_process_group(world_size=...)`` gets is a total over the ranks. Twins: a class that is no
optimizer; an attribute divided by that is not the process group's size."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse
    import torch
    from torch import optim

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", default=2048, type=int)
    parser.add_argument("--chunks", default=4, type=int)


    def main_worker(gpu, args):
        args.world_size = torch.cuda.device_count()
        torch.distributed.init_process_group(backend="nccl", init_method="env://",
                                             world_size=args.world_size, rank=gpu)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(gpu), device_ids=[gpu])
        optimizer = {OPT}(model.parameters(), lr=0.1)
        per_device = args.batch_size // args.{DIVISOR}
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=per_device)
        for x in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    class LARS(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, dict(lr=lr))


    class Schedule:
        def __init__(self, params, lr):
            self.lr = lr


    if __name__ == "__main__":
        args = parser.parse_args()
        torch.multiprocessing.spawn(main_worker, (args,), torch.cuda.device_count())
"""


def _plan(cli, tmp_path, opt: str = "LARS", divisor: str = "world_size") -> dict:
    write(tmp_path, {"main.py": SCRIPT.replace("{OPT}", opt).replace("{DIVISOR}", divisor)})
    return plan_of(cli, "main.py", cwd=tmp_path)


def test_the_files_own_optimizer_class_is_the_optimizer(cli, tmp_path):
    best = fact(_plan(cli, tmp_path), "optimizer.name")
    assert best is not None and best.value == "LARS" and best.confidence == "medium"


def test_twin_a_class_that_is_no_optimizer_is_not_named(cli, tmp_path):
    best = fact(_plan(cli, tmp_path, opt="Schedule"), "optimizer.name")
    assert best is None or best.value != "Schedule"


def test_a_batch_divided_by_the_process_groups_size_is_the_global_batch(cli, tmp_path):
    best = fact(_plan(cli, tmp_path), "batch.global")
    assert best is not None and best.value == 2048


def test_twin_a_batch_divided_by_another_attribute_is_no_global_batch(cli, tmp_path):
    best = fact(_plan(cli, tmp_path, divisor="chunks"), "batch.global")
    assert best is None or best.value != 2048
