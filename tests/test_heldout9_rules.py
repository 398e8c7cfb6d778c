"""Behaviour of the rules written for bugs held-out-9's misses beyond their examples (branch det11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TRAIN = """\
import argparse

import deepspeed


def main(model, train_dataset):
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    engine, _, loader, _ = deepspeed.initialize(args=args, model=model, training_data=train_dataset)
    for x, y in loader:
        engine.backward(engine(x, y))
        engine.step()
"""


def _audit(root: Path, *argv: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "preflight", "audit", *argv, "--format", "json", "--no-cache",
                          "--exit-zero"], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["findings"]


def test_pf545_reports_the_launch_script_line(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "ds_config.json").write_text('{"train_micro_batch_size_per_gpu": 8}\n')
    (tmp_path / "launch.sh").write_text("#!/bin/bash\n# GPUs 0 and 1 are busy\n"
                                        "CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 train.py "
                                        "--deepspeed --deepspeed_config ds_config.json\n")
    found = [f for f in _audit(tmp_path, "launch.sh") if f["code"] == "PF545"]
    assert [(Path(f["path"]).name, f["line"]) for f in found] == [("launch.sh", 3)]
    assert "--include localhost:2,3" in found[0]["message"]


def test_pf545_silent_when_the_launch_script_selects_with_include(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "launch.sh").write_text("#!/bin/bash\ndeepspeed --include localhost:2,3 train.py --deepspeed\n")
    assert not [f for f in _audit(tmp_path, "launch.sh") if f["code"] == "PF545"]


APP = """\
import hydra


@hydra.main(config_path="config", config_name="config", version_base="1.1")
def main(cfg):
    print(cfg.exp.seed)


if __name__ == "__main__":
    main()
"""


def _hydra_project(root: Path) -> None:
    (root / "train.py").write_text(APP)
    (root / "config" / "domain_conf").mkdir(parents=True)
    (root / "config" / "config.yaml").write_text("exp:\n  seed: 100\n")
    for i in range(3):
        (root / "config" / "domain_conf" / f"{i}.yaml").write_text(f"gamma: {i}\n")


def test_pf549_reports_the_launch_script_line(tmp_path):
    _hydra_project(tmp_path)
    (tmp_path / "sweep.sh").write_text("#!/bin/bash\nset -e\npython train.py -m +domain_conf=0,1,2 exp.seed=1,2\n")
    found = [f for f in _audit(tmp_path, "sweep.sh", "--config", "config") if f["code"] == "PF549"]
    assert [(Path(f["path"]).name, f["line"]) for f in found] == [("sweep.sh", 3)]
    assert "'0','1','2'" in found[0]["message"]
