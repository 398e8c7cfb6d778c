"""A YAML named by an option whose every key a helper ``setattr``s over the parsed options (issue 15, set 45:
Guitaricet/relora @ 176f376 ``torchrun_main.py:57,72,78,136-138`` ``--training_config``, ``--max_length``
default 512, ``--use_peft`` default False, ``args = args_utils.check_args_torchrun_main(args)``; the helper
``peft_pretraining/args_utils.py:8-21`` ``if args.training_config is not None: with open(args.training_config)
as f: training_config = yaml.safe_load(f)``, ``for k, v in training_config.items(): if k == "lr": v = float(v);
setattr(args, k, v)``; ``training_configs/1B_v1.0.yaml`` ``max_length: 2048``). Twins: no file on the line,
a guarded (fill-only) setattr, a loop that skips keys."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

UTILS = """\
    import sys
    import yaml


    def check_args(args):
        if args.training_config is not None:
            if len(sys.argv) > 3:
                raise RuntimeError("use only one of the two options")
            with open(args.training_config) as f:
                training_config = yaml.safe_load(f)
            for k, v in training_config.items():
                if k == "lr": v = float(v)
                setattr(args, k, v)
        return args
"""

MAIN = """\
    import argparse
    import torch
    from pretraining import args_utils


    def parse_args(args=None):
        parser = argparse.ArgumentParser()
        parser.add_argument("--training_config", type=str, default=None)
        parser.add_argument("--batch_size", type=int, default=32)
        parser.add_argument("--lr", type=float, default=1e-3)
        args = parser.parse_args(args)
        args = args_utils.check_args(args)
        return args


    def main(args):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        main(parse_args())
"""

CONFIG = """\
# Optimization
batch_size: 8
lr: 4e-4
"""


def _plan(cli, tmp_path, *line: str, utils: str = UTILS) -> dict:
    write(tmp_path, {"pretraining/__init__.py": "", "pretraining/args_utils.py": utils, "train.py": MAIN})
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(CONFIG)
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def test_the_file_keys_replace_the_defaults(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--training_config", "configs/run.yaml")
    micro = fact(plan, "batch.micro")
    assert micro.value == 8
    assert "check_args(args)" in micro.source.detail and "--training_config" in micro.source.detail
    assert "run.yaml" in micro.source.detail


def test_twin_without_the_file_the_default_stands(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--batch_size", "16")
    assert fact(plan, "batch.micro").value == 16


def test_twin_a_fill_only_setattr_is_not_this_reader(cli, tmp_path):
    """``if getattr(args, k) is None: setattr(...)``: the declared default 32 is not None, so it stands."""
    odd = UTILS.replace("                setattr(args, k, v)\n",
                        "                if getattr(args, k) is None:\n                    setattr(args, k, v)\n")
    plan = _plan(cli, tmp_path, "--training_config", "configs/run.yaml", utils=odd)
    assert fact(plan, "batch.micro").value != 8


def test_twin_a_loop_that_skips_keys_is_not_read(cli, tmp_path):
    odd = UTILS.replace('                if k == "lr": v = float(v)\n',
                        '                if k.startswith("batch"):\n                    continue\n')
    plan = _plan(cli, tmp_path, "--training_config", "configs/run.yaml", utils=odd)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 8
