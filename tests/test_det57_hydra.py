"""Config-file behaviours closed while reading the hydra-family misses of held-out-25 (issue 18, branch
det57; held-out-25 and the other sets read are in-sample for these). The rules' own examples are pinned by
the meta-tests; these run the CLI the way a user does, with a launch script (projects written here)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def audit(cli, tmp_path: Path, code: str, *args: str) -> list[tuple[str, int]]:
    result = cli("audit", *args, "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return sorted({(f["path"], f["line"]) for f in json.loads(result.out)["findings"] if f["code"] == code})


YACS_TRAIN = """\
    import argparse

    import torch
    from yacs.config import CfgNode

    parser = argparse.ArgumentParser()
    parser.add_argument("--config-file", required=True)
    args = parser.parse_args()
    with open(args.config_file) as f:
        cfg = CfgNode.load_cfg(f)
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
    """


@pytest.mark.parametrize("value, flagged", [("1e-3", True), ("1.0e-3", False), ("0.001", False)])
def test_a_yacs_config_named_only_on_the_launch_line_is_read_with_pyyaml(cli, tmp_path, value, flagged):
    # yacs issue 46: the script reads whatever --config-file names; the launch line names the file
    write(tmp_path, "train.py", YACS_TRAIN)
    write(tmp_path, "configs/r50.yaml", f"SOLVER:\n  BASE_LR: {value}\n  MOMENTUM: 0.9\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py --config-file configs/r50.yaml\n")
    found = audit(cli, tmp_path, "PF603", "launch.sh")
    assert found == ([("configs/r50.yaml", 2)] if flagged else [])


def test_a_launch_line_that_names_another_file_does_not_make_the_script_a_reader(cli, tmp_path):
    write(tmp_path, "train.py", YACS_TRAIN)
    write(tmp_path, "configs/r50.yaml", "SOLVER:\n  BASE_LR: 0.01\n")
    write(tmp_path, "configs/other.yaml", "SOLVER:\n  BASE_LR: 1e-3\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py --config-file configs/r50.yaml\n")
    assert audit(cli, tmp_path, "PF603", "launch.sh", "--config", "configs/other.yaml") == []


@pytest.mark.parametrize("spec, expected", [
    ("0-7", (8, "0-7")), ("1,3,5", (3, "1,3,5")), ("0-15:4", (4, "0-15:4")), ("0-7%2", (2, "0-7%2")),
    ("0-7%1", None), ("3", None), ("abc", None), ("7-0", None),
])
def test_the_tasks_a_slurm_array_runs_at_once(spec, expected):
    from preflight.rules.plan._pf616_arrays import array_tasks

    assert array_tasks(f"#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --array={spec}\nsrun python train.py\n") == expected


def test_a_hydra_0_x_app_whose_config_path_names_the_file_is_composed(cli, tmp_path):
    # Hydra < 1.0: `config_path` is the primary config file; its folder holds the groups (PF596 reads the list)
    write(tmp_path, "train.py", """\
        import os

        import hydra


        @hydra.main(config_path="conf/config.yaml")
        def main(cfg):
            for d in cfg.dirs:
                os.makedirs(d, exist_ok=True)


        if __name__ == "__main__":
            main()
        """)
    write(tmp_path, "conf/config.yaml", "base: /ckpt\ndirs:\n  - ${base}/a\n  - .\n")
    write(tmp_path, "requirements.txt", "hydra-core==0.11.3\nomegaconf==1.4.1\n")
    assert audit(cli, tmp_path, "PF596", "train.py") == [("train.py", 8)]
    write(tmp_path, "requirements.txt", "hydra-core==1.3.2\nomegaconf==2.3.0\n")
    assert audit(cli, tmp_path, "PF596", "train.py") == []
