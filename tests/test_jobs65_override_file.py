"""A helper that ``setattr``s a YAML section over the parsed options (issue 15, set 32: THUDM/GraphMAE
``main_graph.py:199-202`` ``if args.use_cfg: args = load_best_configs(args, "configs.yml")``, the helper in
``graphmae/utils.py:187-201``; ``scripts/run_graph.sh`` passes ``--use_cfg`` and REDDIT-BINARY's section
sets ``batch_size: 8`` over the argparse default 32). Twins: the flag not given, a dataset without a
section, a helper that writes something else."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

UTILS = """\
    import argparse
    import logging
    import yaml


    def build_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--dataset", type=str, default="MUTAG")
        parser.add_argument("--batch_size", type=int, default=32)
        parser.add_argument("--use_cfg", action="store_true")
        return parser.parse_args()


    def load_best_configs(args, path):
        with open(path, "r") as f:
            configs = yaml.load(f, yaml.FullLoader)
        if args.dataset not in configs:
            logging.info("Best args not found")
            return args
        configs = configs[args.dataset]
        for k, v in configs.items():
            if "lr" in k:
                v = float(v)
            setattr(args, k, v)
        return args
"""

MAIN = """\
    import torch
    from graphmae.utils import build_args, load_best_configs


    def main(args):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters())
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        args = build_args()
        if args.use_cfg:
            args = load_best_configs(args, "configs.yml")
        main(args)
"""

CONFIGS = """\
MUTAG:
  batch_size: 64
  lr: 0.0005
REDDIT-BINARY:
  lr: 0.00015
  batch_size: 8
"""


def _plan(cli, tmp_path, *line: str, utils: str = UTILS) -> dict:
    write(tmp_path, {"graphmae/__init__.py": "", "graphmae/utils.py": utils, "main_graph.py": MAIN})
    (tmp_path / "configs.yml").write_text(CONFIGS)
    return plan_of(cli, "main_graph.py", "--", *line, cwd=tmp_path)


def test_use_cfg_section_replaces_the_line_and_the_default(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--dataset", "REDDIT-BINARY", "--batch_size", "32", "--use_cfg")
    micro = fact(plan, "batch.micro")
    assert micro.value == 8
    assert "load_best_configs(args, 'configs.yml')" in micro.source.detail
    assert "configs.yml:6" in micro.source.detail
    assert fact(plan, "batch.global").value == 8


def test_twin_without_the_flag_the_line_stands(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--dataset", "REDDIT-BINARY", "--batch_size", "16")
    assert fact(plan, "batch.micro").value == 16


def test_twin_a_dataset_without_a_section_keeps_the_line(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--dataset", "PROTEINS", "--batch_size", "16", "--use_cfg")
    assert fact(plan, "batch.micro").value == 16


def test_twin_the_default_dataset_section_applies(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--use_cfg")
    micro = fact(plan, "batch.micro")
    assert micro.value == 64 and "section 'MUTAG'" in micro.source.detail and "configs.yml:2" in micro.source.detail


def test_twin_a_helper_that_also_rebinds_the_dict_is_not_read(cli, tmp_path):
    odd = UTILS.replace("        configs = configs[args.dataset]\n", "        configs = dict(configs, **{'batch_size': 4})\n")
    plan = _plan(cli, tmp_path, "--dataset", "REDDIT-BINARY", "--batch_size", "16", "--use_cfg", utils=odd)
    assert fact(plan, "batch.micro").value == 16
