"""ZeroRedundancyOptimizer built in the ``__init__`` of a local trainer class the script constructs (issue 15,
branch jobs118; adapters/zero_redundancy_local.py). Small projects in the shape of sail-sg/MDT @ 7d26c21
(``masked_diffusion/train_util.py:44-45,83-101,121-128``: ``TrainLoop.__init__(..., opt_type='adan',
use_zero=True)`` with ``ZeroRedundancyOptimizer(optimizer_class=Adam|Adan)`` per ``opt_type`` arm, then DDP;
``scripts/image_train.py`` calls ``TrainLoop(...)`` once without either keyword), with twins that state nothing."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN_UTIL = """\
    import torch
    from torch.nn.parallel.distributed import DistributedDataParallel as DDP
    from torch.optim import AdamW
    from torch.distributed.optim import ZeroRedundancyOptimizer
    from adan import Adan


    class TrainLoop:
        def __init__(self, *, model, data, batch_size, lr, opt_type=OPT, use_zero=ZERO):
            self.model = model
            self.data = data
            if opt_type == 'adamw':
                if use_zero:
                    self.opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=AdamW, lr=lr)
                else:
                    self.opt = AdamW(model.parameters(), lr=lr)
            elif opt_type == 'adan':
                if use_zero:
                    self.opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=Adan, lr=lr)
                else:
                    self.opt = Adan(model.parameters(), lr=lr)
            self.ddp_model = DDP(self.model, device_ids=[0])

        def run_loop(self):
            for batch in self.data:
                loss = self.ddp_model(batch).sum()
                loss.backward()
                self.opt.step()
"""

SCRIPT = """\
    import argparse

    import torch.nn as nn
    from torch.utils.data import DataLoader

    from trainer.train_util import TrainLoop


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", type=int, default=4)
        parser.add_argument("--opt", default="adan")
        args = parser.parse_args()
        model = nn.Linear(8, 8)
        data = DataLoader(list(range(64)), batch_size=args.batch_size)
        TrainLoop(model=model, data=data, batch_size=args.batch_size, lr=1e-4CALL).run_loop()


    if __name__ == "__main__":
        main()
"""


def _plan(cli, tmp_path: Path, opt: str = "'adan'", zero: str = "True", call: str = "", *argv: str) -> dict:
    write(tmp_path, {"trainer/__init__.py": "", "trainer/train_util.py": TRAIN_UTIL.replace("OPT", opt).replace("ZERO", zero),
                     "scripts/image_train.py": SCRIPT.replace("CALL", call)})
    return plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "scripts/image_train.py", *argv, cwd=tmp_path)


def test_the_class_defaults_pick_the_zero_arm_and_its_optimizer(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path)
    got = fact(plan, "dist.sharding")
    assert (got.value, got.confidence, got.source.path, got.source.line) == ("zero1", "medium", "trainer/train_util.py", 19)
    got = fact(plan, "optimizer.name")
    assert (got.value, got.source.line) == ("Adan", 19)


def test_the_scripts_keyword_wins_over_the_default(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, call=", opt_type='adamw'")
    assert (fact(plan, "dist.sharding").value, fact(plan, "optimizer.name").value) == ("zero1", "AdamW")
    assert fact(plan, "dist.sharding").source.line == 14


def test_twin_use_zero_off_states_no_zero(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, zero="False")
    got = fact(plan, "dist.sharding")
    assert got is None or got.value != "zero1"
    # optimizer_local.py: the ZeRO arm's Adan counts beside the plain AdamW arm, so AdamW is not "the only
    # optimizer built there" (it was, medium, before jobs118)
    assert fact(plan, "optimizer.name") is None


def test_twin_an_option_the_line_decides_at_run_time_states_nothing(cli, tmp_path: Path) -> None:
    # ``opt_type=args.opt``: the option's default is known, but a keyword given a value the index cannot
    # resolve (a call's result) leaves the arm undecided
    plan = _plan(cli, tmp_path, call=", opt_type=str(args.opt).strip()")
    got = fact(plan, "dist.sharding")
    assert got is None or got.adapter != "zero_redundancy"


def test_twin_a_splatted_call_states_nothing(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, call=", **{}")
    got = fact(plan, "dist.sharding")
    assert got is None or got.adapter != "zero_redundancy"


def test_twin_a_default_that_is_not_a_literal_states_nothing(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, opt="torch.get_default_dtype()")
    got = fact(plan, "dist.sharding")
    assert got is None or got.adapter != "zero_redundancy"
