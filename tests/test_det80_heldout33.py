"""Behaviours of issue-18 work on branch det80 (held-out-33's false flags and misses) that single-file rule
examples cannot show: an accelerate DeepSpeed config beside a script launched by hand giving the
accumulation window (PF416, accelerate 3836). Programs written here, run through the CLI as a user does."""

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


def check(cli, tmp_path: Path, code: str) -> list[tuple[str, int]]:
    result = cli("check", ".", "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(Path(f["path"]).name, f["line"]) for f in json.loads(result.out)["findings"] if f["code"] == code]


# --- PF416: accelerate 3836, `accelerate launch --config_file ds_zero2.yaml train.py` typed by hand ---------------
TRAIN = """\
    import torch
    from accelerate import Accelerator


    def main():
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        # the engine accumulates over gradient_accumulation_steps and steps at its boundary
        for batch in loader:
            with accelerator.accumulate(model):
                optimizer.zero_grad()
                accelerator.backward(model(**batch).loss)
                optimizer.step()
"""
ACC_YAML = """\
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      gradient_accumulation_steps: {steps}
      offload_optimizer_device: cpu
      zero_stage: 2
    distributed_type: {kind}
    mixed_precision: bf16
    num_processes: 8
"""


def test_pf416_is_silent_beside_an_accelerate_deepspeed_config_with_a_window(cli, tmp_path):
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=8, kind="DEEPSPEED"))
    assert check(cli, tmp_path, "PF416") == []


@pytest.mark.parametrize("steps, kind", [
    (1, "DEEPSPEED"),  # the config's window is 1
    (8, "MULTI_GPU"),  # not a DeepSpeed job: accelerate does not read the DeepSpeed block's window
])
def test_pf416_still_reports_beside_a_config_without_a_deepspeed_window(cli, tmp_path, steps, kind):
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=steps, kind=kind))
    assert check(cli, tmp_path, "PF416") == [("train.py", 6)]


def test_pf416_reads_the_launch_script_before_a_config_beside(cli, tmp_path):
    # the launch line names another config (window 1): the one beside with a window is not the job's
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=8, kind="DEEPSPEED"))
    write(tmp_path, "ddp.yaml", ACC_YAML.format(steps=1, kind="DEEPSPEED"))
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --config_file ddp.yaml train.py\n")
    assert check(cli, tmp_path, "PF416") == [("train.py", 6)]
