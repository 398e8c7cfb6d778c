"""Behaviours found by the tenth held-out run of bench/realworld/configs.py (issue 16), each with a
config that must be flagged and a twin that must stay quiet. Shapes from huggingface/parler-tts: an
HfArgumentParser JSON file (``parser.parse_json_file``) whose keys are mostly the project's own
dataclass fields (a ``Seq2SeqTrainingArguments`` subclass beside its own data arguments), and keys that transformers removed
later than preflight said (``evaluation_strategy``: a field through 4.50.x, gone in 4.51.0;
``include_inputs_for_metrics``: gone in 5.0.0) in a project pinning transformers 4.46.1. The files
here are written from scratch."""

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


def problems(cli, tmp_path: Path, name: str) -> tuple[int, list[dict], list[str]]:
    result = cli("validate", "--format", "json", name, cwd=tmp_path)
    doc = json.loads(result.out)
    return result.code, [p for f in doc["files"] for p in f["problems"]], [k["kind"] for f in doc["files"]
                                                                           for k in f["kinds"]]


def loud(found: list[dict]) -> list[dict]:
    return [p for p in found if p["severity"] in ("error", "warning")]


# --------------------------------------------------------------------------- an HfArgumentParser JSON of mostly project fields

ARGUMENTS = """\
    from dataclasses import dataclass, field
    from typing import Optional

    from transformers import Seq2SeqTrainingArguments


    @dataclass
    class DataTrainingArguments:
        train_dataset_name: str = field(default=None)
        train_metadata_dataset_name: str = field(default=None)
        eval_dataset_name: str = field(default=None)
        target_audio_column_name: str = field(default="audio")
        description_column_name: str = field(default="text")
        max_duration_in_seconds: float = field(default=35.0)
        min_duration_in_seconds: float = field(default=0.0)
        save_to_disk: Optional[str] = field(default=None)
        feature_extractor_name: Optional[str] = field(default=None)
        description_tokenizer_name: Optional[str] = field(default=None)


    @dataclass
    class ParlerTTSTrainingArguments(Seq2SeqTrainingArguments):
        audio_encoder_per_device_batch_size: int = field(default=8)
"""

TRAIN = """\
    import sys

    from transformers import HfArgumentParser

    from arguments import DataTrainingArguments, ParlerTTSTrainingArguments


    def main():
        parser = HfArgumentParser((DataTrainingArguments, ParlerTTSTrainingArguments))
        data_args, training_args = parser.parse_json_file(json_file=sys.argv[1])
"""

CONFIG = """\
    {
        "train_dataset_name": "a+b",
        "train_metadata_dataset_name": "c+d",
        "eval_dataset_name": "a",
        "target_audio_column_name": "audio",
        "description_column_name": "text_description",
        "max_duration_in_seconds": 30,
        "min_duration_in_seconds": 2.0,
        "save_to_disk": "./tmp",
        "feature_extractor_name": "ylacombe/dac_44khZ_8kbps",
        "description_tokenizer_name": "google/flan-t5-large",
        "audio_encoder_per_device_batch_size": 24,
        "output_dir": "./out",
        "per_device_train_batch_size": 6,
        "gradient_accumulation_steps": 4,
        "learning_rate": 0.00095,
        "predict_with_generate": true,
        "LEARNING_RATE_TYPO": 1
    }
"""


def parler_project(tmp_path: Path, reader: bool = True, config: str = CONFIG) -> None:
    write(tmp_path, "setup.py", "from setuptools import setup\nsetup(name='x', install_requires=['transformers'])\n")
    write(tmp_path, "training/arguments.py", ARGUMENTS)
    write(tmp_path, "training/run.py", TRAIN if reader else TRAIN.replace(
        "parser.parse_json_file(json_file=sys.argv[1])", "parser.parse_args_into_dataclasses()"))
    write(tmp_path, "helpers/training_configs/start.json", config.replace('"LEARNING_RATE_TYPO"', '"lerning_rate"'))


def test_a_json_file_the_project_reads_with_parse_json_file_is_validated_on_its_own_fields(cli, tmp_path):
    parler_project(tmp_path)
    code, found, kinds = problems(cli, tmp_path, "helpers/training_configs/start.json")
    assert kinds == ["training-args"]
    # the project's own fields are quiet; a typo close to a TrainingArguments field is not
    assert [(p["code"], p["key"], p["line"]) for p in loud(found)] == [("unknown-key", "lerning_rate", 18)]
    assert code == 1


def test_without_the_projects_json_reader_the_same_file_is_not_recognised(cli, tmp_path):
    parler_project(tmp_path, reader=False)
    code, found, kinds = problems(cli, tmp_path, "helpers/training_configs/start.json")
    assert (found, kinds) == ([], [])  # exit 3: no config recognised (docs/validate.md)
    assert code == 3


def test_with_the_reader_a_file_of_mostly_unknown_keys_is_still_not_recognised(cli, tmp_path):
    # the reader is evidence of the loader, not of the file: half of its keys must still be fields
    foreign = "\n".join(f'    "stage_{i}_setting": {i},' for i in range(20))
    parler_project(tmp_path, config=CONFIG.replace('    "train_dataset_name"', foreign + '\n    "train_dataset_name"'))
    code, found, kinds = problems(cli, tmp_path, "helpers/training_configs/start.json")
    assert (code, found, kinds) == (3, [], [])


def test_check_dir_sees_the_same_file_as_validate(cli, tmp_path):
    parler_project(tmp_path)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 1 and "helpers/training_configs/start.json:18" in result.out
    assert "PF601 unknown key 'lerning_rate'" in result.out and "PF601 unknown key 'predict" not in result.out


def test_check_dir_stays_quiet_without_the_projects_json_reader(cli, tmp_path):
    parler_project(tmp_path, reader=False)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "start.json" not in result.out


# --------------------------------------------------------------------------- the releases that removed two TrainingArguments keys

OLD_KEYS = """\
    model_name_or_path: gpt2
    output_dir: out
    per_device_train_batch_size: 4
    learning_rate: 1.0e-4
    evaluation_strategy: steps
    include_inputs_for_metrics: true
"""


@pytest.mark.parametrize("pin", ["transformers==4.46.1", "transformers>=4.46.1,<=4.46.1", "transformers==4.50.3"])
def test_old_keys_under_a_pin_that_still_has_them_are_notes(cli, tmp_path, pin):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "requirements.txt", pin + "\n")
    write(tmp_path, "train.yaml", OLD_KEYS)
    code, found, _ = problems(cli, tmp_path, "train.yaml")
    assert code == 0 and loud(found) == []
    notes = {p["key"]: p["message"] for p in found if p["code"] == "unknown-key"}
    assert "4.51 removed" in notes["evaluation_strategy"] and "5.0 removed" in notes["include_inputs_for_metrics"]


def test_evaluation_strategy_under_a_pin_at_or_after_its_removal_is_reported(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "requirements.txt", "transformers==4.51.0\n")
    write(tmp_path, "train.yaml", OLD_KEYS)
    code, found, _ = problems(cli, tmp_path, "train.yaml")
    # 4.51.0 no longer has evaluation_strategy; it still has include_inputs_for_metrics (a note)
    assert code == 1 and [(p["key"], p["line"]) for p in loud(found)] == [("evaluation_strategy", 5)]
    assert "4.51 removed" in loud(found)[0]["message"]
    assert [p["severity"] for p in found if p["key"] == "include_inputs_for_metrics"] == ["note"]


def test_old_keys_without_a_pin_are_reported(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "requirements.txt", "transformers\n")
    write(tmp_path, "train.yaml", OLD_KEYS)
    code, found, _ = problems(cli, tmp_path, "train.yaml")
    assert code == 1
    assert sorted((p["key"], p["line"]) for p in loud(found)) == [("evaluation_strategy", 5),
                                                                  ("include_inputs_for_metrics", 6)]
