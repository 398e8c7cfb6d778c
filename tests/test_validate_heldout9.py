"""Behaviours found by the ninth held-out run of bench/realworld/configs.py (issue 16), each with a
config that must be flagged and a twin that must stay quiet. Shapes from THUDM/CogVideo: a DeepSpeed
config written in JSON under a ``.yaml`` name (opened with ``json.load`` by accelerate's
``deepspeed_config_file``), and SwissArmyTransformer configs whose ``deepspeed:`` node the project
loads with ``OmegaConf.load``; the files here are written from scratch."""

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


def loud(found: list[dict]) -> list[dict]:
    return [p for p in found if p["severity"] in ("error", "warning")]


# --------------------------------------------------------------------------- a DeepSpeed config in JSON, named .yaml

JSON_TEXT = """\
    {
        "bf16": {"enabled": true},
        "zero_optimization": {
            "stage": 2,
            "allgather_bucket_size": 2e8,
            "reduce_bucket_size": 5e8
        },
        "gradient_accumulation_steps": 1,
        "train_micro_batch_size_per_gpu": 1
    }
"""

YAML_TEXT = """\
    bf16:
      enabled: true
    zero_optimization:
      stage: 2
      allgather_bucket_size: 2e8
      reduce_bucket_size: 5e8
    gradient_accumulation_steps: 1
    train_micro_batch_size_per_gpu: 1
"""


def test_a_deepspeed_config_written_in_json_under_a_yaml_name_is_read_as_json(cli, tmp_path):
    write(tmp_path, "configs/zero2.yaml", JSON_TEXT)
    code, found = problems(cli, tmp_path, "configs/zero2.yaml")
    assert code == 0 and found == []


def test_the_same_values_in_yaml_syntax_keep_the_yaml11_float_error(cli, tmp_path):
    write(tmp_path, "configs/zero2.yaml", YAML_TEXT)
    code, found = problems(cli, tmp_path, "configs/zero2.yaml")
    assert code == 1
    assert [(p["severity"], p["code"], p["key"], p["line"]) for p in loud(found)] == [
        ("error", "yaml11-float", "zero_optimization.allgather_bucket_size", 5),
        ("error", "yaml11-float", "zero_optimization.reduce_bucket_size", 6)]


def test_a_wrong_value_in_json_text_under_a_yaml_name_is_still_an_error(cli, tmp_path):
    write(tmp_path, "configs/zero2.yaml", JSON_TEXT.replace('"stage": 2', '"stage": 4'))
    code, found = problems(cli, tmp_path, "configs/zero2.yaml")
    (error,) = loud(found)
    assert (code, error["code"], error["key"], error["line"]) == (1, "invalid-value", "zero_optimization.stage", 4)


# --------------------------------------------------------------------------- a deepspeed: node loaded by the project

SAT = """\
    args:
      checkpoint_activations: true
      train_iters: 1000
    model:
      scale_factor: 0.7
    deepspeed:
      train_micro_batch_size_per_gpu: 2
      gradient_accumulation_steps: 1
      gradient_clipping: 0.1
      bf16:
        enabled: true
      optimizer:
        type: FusedAdam
        params:
          lr: 0.00001
          eps: 1e-8
          weight_decay: 1e-4
"""

OMEGACONF_LOADER = """\
    from omegaconf import OmegaConf


    def process_config_to_args(args):
        configs = [OmegaConf.load(cfg) for cfg in args.base]
        return OmegaConf.merge(*configs)
"""

PYYAML_LOADER = """\
    import yaml


    def log_config(path):
        with open(path) as f:
            return yaml.safe_load(f)
"""


@pytest.fixture(autouse=True)
def _fresh_memos():
    from preflight.validate_readers import _loaders_under

    yield
    _loaders_under.cache_clear()


def sat_project(tmp_path: Path, *loaders: str) -> None:
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    for i, loader in enumerate(loaders):
        write(tmp_path, f"sat/loader_{i}.py", loader)
    write(tmp_path, "sat/configs/sft.yaml", SAT)


def test_a_deepspeed_node_of_a_project_that_loads_yaml_with_omegaconf_is_read_as_omegaconf(cli, tmp_path):
    sat_project(tmp_path, OMEGACONF_LOADER)
    code, found = problems(cli, tmp_path, "sat/configs")
    assert code == 0 and found == []


def test_with_both_loaders_in_the_project_the_float_trap_is_a_note(cli, tmp_path):
    sat_project(tmp_path, OMEGACONF_LOADER, PYYAML_LOADER)
    code, found = problems(cli, tmp_path, "sat/configs")
    assert code == 0 and loud(found) == []
    assert [(p["severity"], p["code"], p["key"], p["line"]) for p in found] == [
        ("note", "yaml11-float", "deepspeed.optimizer.params.eps", 16),
        ("note", "yaml11-float", "deepspeed.optimizer.params.weight_decay", 17)]
    assert "sat/loader_0.py:5" in found[0]["message"] and "sat/loader_1.py:6" in found[0]["message"]


@pytest.mark.parametrize("loaders", [(PYYAML_LOADER,), ()])
def test_a_deepspeed_node_read_with_pyyaml_or_no_known_loader_keeps_the_warning(cli, tmp_path, loaders):
    sat_project(tmp_path, *loaders)
    _, found = problems(cli, tmp_path, "sat/configs")
    assert [(p["severity"], p["code"], p["key"]) for p in loud(found)] == [
        ("warning", "yaml11-float", "deepspeed.optimizer.params.eps"),
        ("warning", "yaml11-float", "deepspeed.optimizer.params.weight_decay")]


def test_a_trainingarguments_file_with_a_deepspeed_node_is_read_by_hfargumentparser(cli, tmp_path):
    # OmegaConf elsewhere in the project does not change how HfArgumentParser reads a Trainer YAML
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "loader.py", OMEGACONF_LOADER)
    write(tmp_path, "recipes/sft.yaml", """\
        output_dir: out
        per_device_train_batch_size: 4
        gradient_accumulation_steps: 2
        learning_rate: 2.0e-5
        num_train_epochs: 1
        bf16: true
        deepspeed:
          zero_optimization:
            stage: 2
            reduce_bucket_size: 5e8
    """)
    code, found = problems(cli, tmp_path, "recipes")
    assert code == 1
    assert {(p["code"], p["key"]) for p in loud(found)} == {("yaml11-float", "deepspeed.zero_optimization.reduce_bucket_size")}
