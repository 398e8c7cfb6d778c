"""Bad or empty input on real jobs (bench/robustness/sweep.py): one clear message, a documented
exit code, never a silent empty answer. The inputs are rebuilt from the shapes the sweep met in
public repositories; they are written here from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# DeepSpeed-Chat's step1 folder: the DeepSpeed config is built in Python, no .json/.yaml beside it
DS_IN_PYTHON = """\
    def get_train_ds_config(offload, stage=2):
        return {"train_batch_size": 32, "zero_optimization": {"stage": stage}}
"""


def test_validate_on_a_folder_without_configs_says_nothing_was_validated(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    write(tmp_path, "step1/training_scripts/run.sh", "deepspeed main.py --zero_stage 2\n")
    result = cli("validate", "step1", cwd=tmp_path)
    assert result.code == 0  # as `check` on a folder without Python: a CI step must not fail
    assert result.out == "No config files found: nothing was validated.\n"
    assert result.err == ("preflight: warning: no config files (.json, .yaml, .yml) found under step1 "
                          "(nothing was validated)\n")
    assert "no problems" not in result.out


def test_validate_json_on_a_folder_without_configs_warns_on_stderr(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    result = cli("validate", "--format", "json", "step1", cwd=tmp_path)
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["files"] == [] and doc["counts"]["checked"] == 0
    assert "no config files (.json, .yaml, .yml) found under step1" in result.err


def test_validate_a_folder_with_a_config_is_not_called_empty(cli, tmp_path):
    write(tmp_path, "step1/main.py", DS_IN_PYTHON)
    write(tmp_path, "step1/ds.json", '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}\n')
    result = cli("validate", "step1", cwd=tmp_path)
    assert result.code == 0
    assert result.out == "Validated 1 file (deepspeed): no problems\n"
    assert result.err == ""


def test_validate_a_folder_of_unrecognised_yaml_counts_them_and_does_not_warn(cli, tmp_path):
    # a folder whose YAML files are no training config (a CI workflow): counted, not "no config files"
    write(tmp_path, "conf/.github/ci.yaml", "on: push\n")
    write(tmp_path, "conf/mkdocs.yml", "site_name: docs\nnav:\n  - index.md\n")
    result = cli("validate", "conf", cwd=tmp_path)
    assert result.code == 0
    assert result.out == "Validated 0 files: no problems; 1 file not recognised as a config\n"
    assert result.err == ""


def test_validate_a_missing_file_is_an_input_error_not_an_empty_run(cli, tmp_path):
    result = cli("validate", "nowhere.json", cwd=tmp_path)
    assert result.code == 3
    assert "nowhere.json: error: no such file" in result.out
    assert "No config files found" not in result.out and result.err == ""
