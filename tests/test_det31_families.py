"""Branch det31: shapes of the accelerate, deepspeed and lightning families that the rule examples
cannot hold (a launch script with an ``export`` line), run the way a user runs ``audit``."""

from __future__ import annotations

from pathlib import Path

_MAIN = """\
import argparse

import deepspeed


def main(model, data):
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    engine, _, loader, _ = deepspeed.initialize(args=args, model=model, training_data=data)
    for batch in loader:
        engine.backward(engine(batch).loss)
        engine.step()
"""


def _project(tmp_path: Path, launch: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "main.py").write_text(_MAIN, encoding="utf-8")
    (tmp_path / "launch.sh").write_text(launch, encoding="utf-8")
    return tmp_path


def _pf545(cli, work: Path) -> list[str]:
    result = cli("audit", "launch.sh", "--no-cache", "--select", "PF545", "--exit-zero", cwd=work)
    return [line for line in result.out.splitlines() if ": PF545 " in line]


def test_an_exported_device_list_reaches_the_bare_deepspeed_launch(cli, tmp_path):
    # Yi issue 392: `export CUDA_VISIBLE_DEVICES=1` then `deepspeed main.py`: "No slot '1'"
    work = _project(tmp_path / "bug", "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=1\ndeepspeed main.py --deepspeed\n")
    found = _pf545(cli, work)
    assert len(found) == 1
    assert found[0].startswith("launch.sh:2:")  # the export line, where the value is set
    assert "No slot '1'" in found[0]


def test_the_launcher_include_and_a_zero_based_list_stay_silent(cli, tmp_path):
    fix = _project(tmp_path / "fix", "#!/bin/bash\ndeepspeed --include localhost:1 main.py --deepspeed\n")
    zero = _project(tmp_path / "zero", "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\ndeepspeed main.py --deepspeed\n")
    assert _pf545(cli, fix) == []
    assert _pf545(cli, zero) == []


def test_an_exported_list_with_num_gpus_is_the_ignored_variable_shape(cli, tmp_path):
    work = _project(tmp_path / "num", "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=2,3\n"
                                      "deepspeed --num_gpus 2 main.py --deepspeed\n")
    found = _pf545(cli, work)
    assert len(found) == 1 and "ignores" in found[0]
