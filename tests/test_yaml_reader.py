"""PF603 / validate's YAML 1.1 float check judged by the reader the config's own project uses.

held-out-6's tricky-correct program (LLaMA-Factory PR 8505's fix): a TrainingArguments YAML with
``learning_rate: 5e-5`` loaded by ``OmegaConf.load(sys.argv[1])`` (OmegaConf reads it as a float)
was reported as a PyYAML string by ``check DIR`` and ``validate FILE``, which saw only the config.
Now both read how the Python files beside it (or of its marked project) load YAML. The files here
are written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

YAML = """\
model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
output_dir: saves/sft
per_device_train_batch_size: 1
learning_rate: 5e-5
bf16: true
"""

OMEGA = """\
import sys

from omegaconf import OmegaConf
from transformers import TrainingArguments

cfg = OmegaConf.to_container(OmegaConf.load(sys.argv[1]), resolve=True)
args = TrainingArguments(**cfg)
"""

SAFE_LOAD = """\
import sys

import yaml
from transformers import TrainingArguments

with open(sys.argv[1]) as f:
    cfg = yaml.safe_load(f)
args = TrainingArguments(**cfg)
"""


def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture(autouse=True)
def _fresh_memos():
    from preflight.validate_project import _reader_beside, _reader_under

    _reader_beside.cache_clear()
    _reader_under.cache_clear()
    yield


def validate_lines(cli, root: Path) -> list[tuple[str, int]]:
    doc = json.loads(cli("validate", "--format", "json", "sft.yaml", cwd=root).out)
    return [(p["code"], p["line"]) for f in doc["files"] for p in f["problems"]]


def check_lines(cli, root: Path) -> list[tuple[str, int]]:
    doc = json.loads(cli("check", ".", "--format", "json", "--no-cache", "-j", "1", "--exit-zero", cwd=root).out)
    return [(f["code"], f["line"]) for f in doc["findings"]]


def test_a_file_loaded_with_omegaconf_beside_it_is_not_a_string_float(cli, tmp_path):
    write(tmp_path, "sft.yaml", YAML)
    write(tmp_path, "train.py", OMEGA)
    assert validate_lines(cli, tmp_path) == []
    assert check_lines(cli, tmp_path) == []


def test_a_marked_project_loading_with_omegaconf_in_a_subfolder(cli, tmp_path):
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    write(tmp_path, "examples/sft.yaml", YAML)
    write(tmp_path, "src/lf/loader.py", OMEGA)
    doc = json.loads(cli("validate", "--format", "json", "examples/sft.yaml", cwd=tmp_path).out)
    assert [p["code"] for f in doc["files"] for p in f["problems"]] == []


def test_a_yaml_safe_load_beside_it_still_reads_a_string(cli, tmp_path):
    write(tmp_path, "sft.yaml", YAML)
    write(tmp_path, "train.py", SAFE_LOAD)
    assert validate_lines(cli, tmp_path) == [("yaml11-float", 4)]
    assert check_lines(cli, tmp_path) == [("PF603", 4)]


def test_omegaconf_and_pyyaml_both_used_still_reads_a_string(cli, tmp_path):
    write(tmp_path, "sft.yaml", YAML)
    write(tmp_path, "train.py", OMEGA)
    write(tmp_path, "convert.py", SAFE_LOAD)
    assert validate_lines(cli, tmp_path) == [("yaml11-float", 4)]


def test_a_config_alone_is_read_by_pyyaml(cli, tmp_path):
    write(tmp_path, "sft.yaml", YAML)
    assert validate_lines(cli, tmp_path) == [("yaml11-float", 4)]
    assert check_lines(cli, tmp_path) == [("PF603", 4)]


PARSE_YAML_FILE = """\
import sys

from transformers import HfArgumentParser, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_yaml_file(sys.argv[1])
"""

PARSE_DICT = """\
import sys

from omegaconf import OmegaConf
from transformers import HfArgumentParser, TrainingArguments

cfg = OmegaConf.to_container(OmegaConf.load(sys.argv[1]))
(args,) = HfArgumentParser(TrainingArguments).parse_dict(cfg)
"""


def test_parse_yaml_file_beside_it_reads_a_string(cli, tmp_path):
    # LLaMA-Factory before PR 8505: HfArgumentParser.parse_yaml_file is yaml.safe_load
    write(tmp_path, "sft.yaml", YAML)
    write(tmp_path, "train.py", PARSE_YAML_FILE)
    assert validate_lines(cli, tmp_path) == [("yaml11-float", 4)]


def test_omegaconf_load_then_parse_dict_is_a_float(cli, tmp_path):
    # LLaMA-Factory after PR 8505: OmegaConf.load, then HfArgumentParser.parse_dict
    write(tmp_path, "sft.yaml", YAML)
    write(tmp_path, "train.py", PARSE_DICT)
    assert validate_lines(cli, tmp_path) == []


ALBEF_SCRIPT = """\
import argparse

import yaml

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="./configs/Pretrain.yaml")
config = yaml.load(open(parser.parse_args().config), Loader=yaml.Loader)
"""

ALBEF_YAML = """\
batch_size: 64
optimizer: {opt: adamW, lr: 1e-4, weight_decay: 0.02}
schedular: {sched: cosine, lr: 0.0001, min_lr: 1e-5}
"""


def audit_lines(cli, root: Path, *config: str) -> list[tuple[str, str, int]]:
    argv = ["audit", "Pretrain.py"]
    for c in config:
        argv += ["--config", c]
    doc = json.loads(cli(*argv, "--format", "json", "--no-cache", "--exit-zero", cwd=root).out)
    return [(f["code"], f["path"], f["line"]) for f in doc["findings"] if f["code"] == "PF603"]


def test_a_config_folder_that_is_not_hydra_is_read_file_by_file(cli, tmp_path):
    # ALBEF: `--config configs` names a folder of plain YAML files the script reads with yaml.load
    write(tmp_path, "Pretrain.py", ALBEF_SCRIPT)
    write(tmp_path, "configs/Pretrain.yaml", ALBEF_YAML)
    expected = [("PF603", "configs/Pretrain.yaml", 2), ("PF603", "configs/Pretrain.yaml", 3)]
    assert audit_lines(cli, tmp_path, "configs") == expected
    assert audit_lines(cli, tmp_path, "configs/Pretrain.yaml") == expected


def test_a_folder_with_a_defaults_list_stays_a_hydra_folder(cli, tmp_path):
    write(tmp_path, "Pretrain.py", ALBEF_SCRIPT)
    write(tmp_path, "configs/Pretrain.yaml", "defaults:\n  - optim: adam\n" + ALBEF_YAML)
    write(tmp_path, "configs/optim/adam.yaml", "lr: 1e-4\n")
    doc = json.loads(cli("audit", "Pretrain.py", "--config", "configs", "--format", "json", "--no-cache",
                         "--exit-zero", cwd=tmp_path).out)
    assert [f for f in doc["findings"] if f["code"] == "PF603"] == []
