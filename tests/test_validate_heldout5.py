"""Behaviours found by the fifth held-out run of bench/realworld/configs.py (issue 16), each with a
config that must be flagged and a twin that must stay quiet. Shapes from CarperAI/trlx (NeMo
megatron configs, DeepSpeed fp16 sections under a DeepSpeed pin) and modelscope/ms-swift (a YAML
read by the project's own loader into --flags); the files here are written from scratch."""

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


def problems(cli, tmp_path: Path, name: str) -> tuple[int, list[dict]]:
    result = cli("validate", "--format", "json", name, cwd=tmp_path)
    doc = json.loads(result.out)
    return result.code, [p for f in doc["files"] for p in f["problems"]]


@pytest.fixture(autouse=True)
def _fresh_memos():
    from preflight.validate_project import _flags_under, _pins_under

    _pins_under.cache_clear()  # the CLI runs in this process: forget the previous project's files
    _flags_under.cache_clear()
    yield


# --------------------------------------------------------------------------- NeMo trainer node

NEMO = """\
    name: megatron_gpt
    trainer:
      devices: 8
      accelerator: gpu
      precision: bf16
      replace_sampler_ddp: False
      max_steps: 200
    %s
    model:
      micro_batch_size: 4
"""

EXP_MANAGER = "exp_manager:\n  explicit_log_dir: logs\n  create_wandb_logger: False"


def test_a_lightning_1x_argument_in_a_nemo_config_is_a_note(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "configs/megatron.yaml", NEMO % EXP_MANAGER.replace("\n", "\n    "))
    code, found = problems(cli, tmp_path, "configs/megatron.yaml")
    (note,) = [p for p in found if p["key"] == "trainer.replace_sampler_ddp"]
    assert (code, note["severity"], note["line"]) == (0, "note", 6)
    assert "NeMo config" in note["message"] and "NVIDIA/NeMo#6433" in note["message"]
    assert not [p for p in found if p["severity"] in ("error", "warning")]


def test_the_same_trainer_node_without_exp_manager_is_still_an_error(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "configs/megatron.yaml", NEMO % "")
    code, found = problems(cli, tmp_path, "configs/megatron.yaml")
    (error,) = [p for p in found if p["key"] == "trainer.replace_sampler_ddp"]
    assert (code, error["severity"], error["line"]) == (1, "error", 6)
    assert "Lightning 1.9.5 still took it (gone by 2.0.0)" in error["message"]


# --------------------------------------------------------------------------- DeepSpeed fp16 under a pin

DS = """\
    {
      "train_micro_batch_size_per_gpu": 2,
      "gradient_accumulation_steps": 4,
      "fp16": {
        "enabled": true,
        "min_loss_scale": 0.5,
        "opt_level": "O2"
      }
    }
"""


def test_fp16_keys_under_a_deepspeed_pin_before_0_17_1_do_nothing(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "requirements.txt", "torch\ndeepspeed==0.10.1\n")
    write(tmp_path, "configs/ds.json", DS)
    code, found = problems(cli, tmp_path, "configs/ds.json")
    by_key = {p["key"]: p for p in found}
    warning, note = by_key["fp16.opt_level"], by_key["fp16.min_loss_scale"]
    assert (code, warning["severity"], warning["line"]) == (1, "warning", 7)  # a warning exits 1
    assert "deepspeed==0.10.1 (requirements.txt)" in warning["message"]
    assert "this setting does nothing" in warning["message"]
    assert (note["severity"], note["code"], note["line"]) == ("note", "wrong-type", 6)
    assert "DeepSpeed 0.17.1 and later expect" in note["message"]


@pytest.mark.parametrize("pins", [
    {},                                                         # no pin: the newest DeepSpeed
    {"requirements.txt": "deepspeed>=0.8.1\n"},                 # no upper bound
    {"requirements.txt": "deepspeed==0.17.1\n"},                # the strict release itself
    {"requirements.txt": "deepspeed==0.10.1\n", "setup.cfg": "[options]\ninstall_requires =\n    deepspeed>=0.8.1\n"},
])
def test_fp16_keys_stay_errors_without_an_older_deepspeed_pin(cli, tmp_path, pins):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    for name, text in pins.items():
        write(tmp_path, name, text)
    write(tmp_path, "configs/ds.json", DS)
    code, found = problems(cli, tmp_path, "configs/ds.json")
    by_key = {p["key"]: p for p in found}
    assert code == 1
    assert by_key["fp16.opt_level"]["severity"] == "error"
    assert by_key["fp16.min_loss_scale"]["severity"] == "error"


# --------------------------------------------------------------------------- YAML read into --flags

SWIFT_YAML = """\
    model: Qwen/Qwen2.5-7B-Instruct
    output_dir: out
    per_device_train_batch_size: 1
    gradient_accumulation_steps: 8
    learning_rate: 1e-4
    num_train_epochs: 1
"""

LOADER = """\
    import yaml


    def parse_yaml_args(argv):
        with open(argv[0]) as f:
            config = yaml.safe_load(f)
        out = []
        for k, v in config.items():
            out += [f'--{k}', str(v)]
        argv[0:1] = out
"""


def test_a_yaml11_float_is_a_note_when_the_project_turns_the_yaml_into_flags(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "swift/cli/main.py", LOADER)
    write(tmp_path, "examples/sft.yaml", SWIFT_YAML)
    code, found = problems(cli, tmp_path, "examples/sft.yaml")
    (note,) = [p for p in found if p["code"] == "yaml11-float"]
    assert (code, note["severity"], note["line"]) == (0, "note", 5)
    assert "swift/cli/main.py:9" in note["message"]


def test_a_yaml11_float_stays_an_error_without_such_a_loader(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "train.py", "import yaml\nconfig = yaml.safe_load(open('x.yaml'))\nprint('--verbose')\n")
    write(tmp_path, "examples/sft.yaml", SWIFT_YAML)
    code, found = problems(cli, tmp_path, "examples/sft.yaml")
    (error,) = [p for p in found if p["code"] == "yaml11-float"]
    assert (code, error["severity"], error["line"]) == (1, "error", 5)


def test_a_loader_that_only_appears_inside_a_string_does_not_count(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "tests/test_loader.py", f"LOADER = {textwrap.dedent(LOADER)!r}\n")
    write(tmp_path, "examples/sft.yaml", SWIFT_YAML)
    code, found = problems(cli, tmp_path, "examples/sft.yaml")
    (error,) = [p for p in found if p["code"] == "yaml11-float"]
    assert (code, error["severity"]) == (1, "error")
