"""A DeepSpeed JSON whose path the script builds from its launch options is read by ``audit``, so
PF502 checks its batch triple against the launch line's world size (issue 16, configs held-out-14:
NExT-GPT's legacy ``code/dsconfig/stage_{1,2,3}.json`` set ``train_batch_size: 2`` with micro 1
and accumulation 1, and ``scripts/train.sh`` launches one GPU with ``deepspeed --include
localhost:6``; ``train.py`` builds ``f'dsconfig/stage_{args["stage"]}.json'`` from ``--stage 1``
and hands it to ``HfDeepSpeedConfig``). The files are written from scratch in the same shape."""

from __future__ import annotations

from pathlib import Path

TRAIN = """\
import argparse

import deepspeed
from transformers.deepspeed import HfDeepSpeedConfig


def parser_args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--stage', type=int, default=1)
    parser.add_argument('--save_path', type=str, default='out')
    return parser.parse_args()


def main(**args):
    args['ds_config_path'] = f'dsconfig/stage_{args["stage"]}.json'
    dschf = HfDeepSpeedConfig(args['ds_config_path'])
    engine, optimizer, _, _ = deepspeed.initialize(model=build(args), config_params=load(args['ds_config_path']))


if __name__ == "__main__":
    args = parser_args()
    args = vars(args)
    main(**args)
"""

BROKEN = '{\n  "train_batch_size": 2,\n  "train_micro_batch_size_per_gpu": 1,\n  "gradient_accumulation_steps": 1,\n' \
         '  "zero_optimization": {"stage": 2}\n}\n'
FINE = BROKEN.replace('"train_batch_size": 2', '"train_batch_size": 1')


def _project(tmp_path: Path, launch: str, stage_1: str = BROKEN, stage_2: str = FINE, train: str = TRAIN) -> Path:
    code = tmp_path / "code"
    (code / "dsconfig").mkdir(parents=True)
    (code / "scripts").mkdir()
    (code / "train.py").write_text(train)
    (code / "dsconfig" / "stage_1.json").write_text(stage_1)
    (code / "dsconfig" / "stage_2.json").write_text(stage_2)
    (code / "scripts" / "train.sh").write_text(f"#!/bin/bash\n\n{launch}\n")
    return code


def _pf502(cli, code: Path) -> tuple[int, list[str]]:
    res = cli("audit", "scripts/train.sh", "--select", "PF502", "--no-cache", cwd=code)
    return res.code, [line for line in res.out.splitlines() if " PF502 " in line]


def test_the_stage_config_named_by_the_launch_options_is_checked_against_its_world_size(cli, tmp_path):
    code = _project(tmp_path, "deepspeed --include localhost:6 train.py --stage 1 --save_path out")
    rc, found = _pf502(cli, code)
    assert len(found) == 1 and found[0].startswith("dsconfig/stage_1.json:2:"), found
    assert "train_batch_size 2 != 1 (micro) x 1 (accumulation) x 1 (world size)" in found[0]
    assert rc == 1


def test_the_stage_config_that_holds_on_the_launch_world_size_stays_quiet(cli, tmp_path):
    code = _project(tmp_path, "deepspeed --include localhost:0,1 train.py --stage 1 --save_path out")
    assert _pf502(cli, code) == (0, [])


def test_only_the_stage_the_launch_selects_is_read(cli, tmp_path):
    # stage_1.json cannot hold on one GPU, but the launch trains stage 2, whose triple holds
    code = _project(tmp_path, "deepspeed --include localhost:6 train.py --stage 2 --save_path out")
    assert _pf502(cli, code) == (0, [])


def test_keyword_arguments_not_from_the_parsed_options_are_not_taken_for_them(cli, tmp_path):
    # main(**settings) with a dict of the script's own: args["stage"] is not the --stage option
    train = TRAIN.replace("    args = vars(args)\n    main(**args)", "    main(**{'stage': 2, 'save_path': 'x'})")
    code = _project(tmp_path, "deepspeed --include localhost:6 train.py --stage 1 --save_path out", train=train)
    assert _pf502(cli, code) == (0, [])
