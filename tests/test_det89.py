"""det89: held-out-36 hydra reach (PF519 on a partial config tree, PF603 on an axolotl-shaped file
the job's own script reads with PyYAML)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def findings(cli, tmp_path: Path, *argv: str) -> list[tuple[str, str, int, str, str]]:
    result = cli(*argv, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], f["path"], f["line"], f["severity"], f["message"])
            for f in json.loads(result.out)["findings"]]


HYDRA_APP = """\
import hydra


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg):
    callbacks = [hydra.utils.instantiate(cb) for cb in cfg.callbacks.values()]
    trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks)
    trainer.fit(hydra.utils.instantiate(cfg.model))


if __name__ == "__main__":
    main()
"""

OPTION = """\
model_checkpoint:
  _target_: lightning.pytorch.callbacks.ModelCheckpoint
  monitor: null
  mode: "min"
"""


def _partial_tree(tmp_path: Path, defaults: str, body: str) -> None:
    """lightning-hydra-template issue 544's shape: the primary names option files the audit does not
    have (trainer/default, paths/default), so the app's full composition fails."""
    write(tmp_path, "src/train.py", HYDRA_APP)
    write(tmp_path, "configs/train.yaml", "defaults:\n  - _self_\n  - callbacks: default\n"
                                          "  - trainer: default\n  - paths: default\nseed: 1\n")
    write(tmp_path, "configs/callbacks/default.yaml", defaults + body)
    write(tmp_path, "configs/callbacks/model_checkpoint.yaml", OPTION)


def _pf519(cli, tmp_path: Path) -> list[tuple[str, str, int, str, str]]:
    write(tmp_path, "launch.sh", "#!/bin/bash\npython src/train.py\n")
    found = findings(cli, tmp_path, "audit", "launch.sh", "src/train.py", "--config", "configs")
    return [f for f in found if f[0] == "PF519"]


BODY = 'model_checkpoint:\n  monitor: "val/acc"\n  mode: "max"\n'


def test_self_first_in_a_group_config_is_reported_when_the_full_composition_fails(cli, tmp_path):
    _partial_tree(tmp_path, "defaults:\n  - _self_\n  - model_checkpoint\n", BODY)
    found = _pf519(cli, tmp_path)
    assert [(Path(f[1]).as_posix(), f[2], f[3]) for f in found] == [("configs/callbacks/default.yaml", 2, "warning")]
    assert "model_checkpoint.monitor: 'val/acc'` becomes None" in found[0][4]


def test_self_last_in_the_group_config_is_silent(cli, tmp_path):
    _partial_tree(tmp_path, "defaults:\n  - model_checkpoint\n  - _self_\n", BODY)
    assert _pf519(cli, tmp_path) == []


def test_self_first_with_an_option_setting_other_keys_is_silent(cli, tmp_path):
    # tricky-correct: the later option sets only keys the file leaves alone
    _partial_tree(tmp_path, "defaults:\n  - _self_\n  - model_checkpoint\n", "model_checkpoint:\n  dirpath: ckpt\n")
    assert _pf519(cli, tmp_path) == []


def test_self_first_with_a_global_overlay_option_is_silent(cli, tmp_path):
    _partial_tree(tmp_path, "defaults:\n  - _self_\n  - model_checkpoint\n", BODY)
    write(tmp_path, "configs/callbacks/model_checkpoint.yaml", "# @package _global_\n" + OPTION)
    assert _pf519(cli, tmp_path) == []


AXOLOTL_SHAPED = """\
base_model: mistralai/Mistral-7B-v0.1
datasets: data/alpaca_cleaned.jsonl
sequence_len: 2048
micro_batch_size: 2
num_epochs: 3
learning_rate: {lr}
"""

OWN_READER = """\
import sys

import yaml

with open(sys.argv[1]) as f:
    cfg = yaml.safe_load(f)
print(cfg["learning_rate"] * 2)
"""


def _pf603(cli, tmp_path: Path, lr: str, script: str = OWN_READER) -> list[tuple[str, str, int, str, str]]:
    write(tmp_path, "config.yml", AXOLOTL_SHAPED.format(lr=lr))
    write(tmp_path, "train.py", script)
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py config.yml\n")
    found = findings(cli, tmp_path, "audit", "launch.sh", "train.py", "--config", "config.yml")
    return [f for f in found if f[0] == "PF603"]


def test_an_axolotl_shaped_file_the_job_reads_with_pyyaml_is_a_warning(cli, tmp_path):
    # axolotl PR 771: `learning_rate: 7e-6` read with yaml.safe_load is the string '7e-6'
    found = _pf603(cli, tmp_path, "7e-6")
    assert [(f[2], f[3]) for f in found] == [(6, "warning")]
    assert "train.py:6 reads this file with PyYAML" in found[0][4]


def test_the_dotted_exponent_is_silent(cli, tmp_path):
    assert _pf603(cli, tmp_path, "7.0e-6") == []


def test_an_axolotl_job_keeps_the_note(cli, tmp_path):
    # tricky-correct: axolotl itself loads the file; its pydantic models convert the string
    script = "from axolotl.cli.train import do_cli\n\nimport yaml\n\nyaml.safe_load('{}')\ndo_cli()\n"
    found = _pf603(cli, tmp_path, "7e-6", script)
    assert found and all(f[3] == "note" for f in found)


TA_YAML = """\
output_dir: out
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
learning_rate: 2.0e-5
max_seq_length: 2048
"""

HF_READER = """\
import sys

from transformers import HfArgumentParser, TrainingArguments

parser = HfArgumentParser(TrainingArguments)
training_args = parser.parse_yaml_file(sys.argv[1]{extra})[0]
"""


def _unknown(cli, tmp_path: Path, extra: str) -> list[tuple[str, int]]:
    write(tmp_path, "config.yaml", TA_YAML)
    write(tmp_path, "train.py", HF_READER.format(extra=extra))
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py config.yaml\n")
    result = cli("validate", "config.yaml", "--format", "json", cwd=tmp_path)
    out = [(p["code"], p["line"]) for f in json.loads(result.out)["files"] for p in f["problems"]]
    audit = findings(cli, tmp_path, "audit", "launch.sh", "train.py", "--config", "config.yaml")
    return [c for c in out if c[0] == "unknown-key"] + [(f[0], f[2]) for f in audit if f[0] == "PF601"]


def test_an_unknown_training_arguments_key_is_reported_without_allow_extra_keys(cli, tmp_path):
    assert sorted(set(_unknown(cli, tmp_path, ""))) == [("PF601", 5), ("unknown-key", 5)]


def test_allow_extra_keys_true_silences_the_unknown_key(cli, tmp_path):
    # held-out-36 (starcoder 41): parse_yaml_file(..., allow_extra_keys=True) ignores max_seq_length
    assert _unknown(cli, tmp_path, ", allow_extra_keys=True") == []
