"""det148: PF514 reads the launch line of a job whose launched script is not in the job (transformers
issue 14531: ``deepspeed run_translation.py --model_name_or_path t5-11b --fp16`` with a ZeRO-3 config that
enables fp16; run_translation.py is transformers' example script, not the user's file)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.plan_helpers import write

DS = """\
{
  "fp16": {"enabled": true, "loss_scale": 0},
  "zero_optimization": {"stage": 3},
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto"
}
"""
DS_BF16 = DS.replace('"fp16"', '"bf16"')


def _launch(model: str, precision: str, out: str = "output/run") -> str:
    return f"""\
    #!/bin/bash
    # 8x A100 80GB
    deepspeed --num_gpus 8 run_translation.py \\
        --model_name_or_path {model} \\
        --do_train --train_file data/train.json \\
        --per_device_train_batch_size 4 --learning_rate 1e-4 --num_train_epochs 2 \\
        --output_dir {out} {precision} --deepspeed ds_config.json
    """


def _pf514(cli, root: Path) -> list[dict]:
    res = cli("audit", "run.sh", "--config", "ds_config.json", "--format", "json", "--no-cache", "--exit-zero",
              cwd=root)
    return [f for f in json.loads(res.out)["findings"] if f["code"] == "PF514"]


def test_t5_in_fp16_on_the_launch_line_of_an_unfound_script_is_reported_there(cli, tmp_path):
    write(tmp_path, {"run.sh": _launch("t5-11b", "--fp16"), "ds_config.json": DS})
    found = _pf514(cli, tmp_path)
    assert [(Path(f["path"]).name, f["line"]) for f in found] == [("run.sh", 3)]
    assert "t5-11b" in found[0]["message"]


def test_fp16_only_in_the_deepspeed_config_is_reported_on_the_config(cli, tmp_path):
    write(tmp_path, {"run.sh": _launch("google/flan-t5-xl", ""), "ds_config.json": DS})
    assert [(Path(f["path"]).name, f["line"]) for f in _pf514(cli, tmp_path)] == [("ds_config.json", 2)]


def test_the_fixed_job_in_bf16_stays_silent(cli, tmp_path):
    write(tmp_path, {"run.sh": _launch("t5-11b", "--bf16"), "ds_config.json": DS_BF16})
    assert _pf514(cli, tmp_path) == []


def test_a_t5_named_output_dir_does_not_make_the_model_t5(cli, tmp_path):
    # only a model flag's value names the model: the output folder is named after a T5 run
    write(tmp_path, {"run.sh": _launch("facebook/bart-large", "--fp16", out="output/t5-small-baseline"),
                     "ds_config.json": DS})
    assert _pf514(cli, tmp_path) == []
