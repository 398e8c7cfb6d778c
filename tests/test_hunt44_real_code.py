"""hunt44: false positives found on real public code (docs/corpus.md, "Rules on real code (hunt44)")."""

from __future__ import annotations

import textwrap
from pathlib import Path

TRAIN = """\
    from transformers import HfArgumentParser, TrainingArguments
    from component.argument import CustomArguments

    parser = HfArgumentParser((CustomArguments, TrainingArguments))
    args, training_args = parser.parse_json_file(json_file="train_args/sft/qwen.json")
"""
ARGUMENTS = """\
    from dataclasses import dataclass, field


    @dataclass
    class CustomArguments:
        max_seq_length: int = field(default=1024)
        lora_rank: int = field(default=64)
        train_file: str = field(default="data/train.jsonl")
"""
CONFIG = """\
    {
        "output_dir": "output/qwen",
        "model_name_or_path": "Qwen/Qwen2-7B",
        "train_file": "data/train.jsonl",
        "num_train_epochs": 1,
        "per_device_train_batch_size": 1,
        "gradient_accumulation_steps": 16,
        "learning_rate": 2e-4,
        "max_seq_length": 1024,
        "lora_rank": 64,
        "logging_step": 10,
        "save_strategy": "steps"
    }
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_project_without_marker_still_declares_its_own_fields(cli, tmp_path):
    # Firefly's shape, as a release archive or a copy without .git: no pyproject/setup/.git above
    # the config, the script and its dataclasses in the folders above train_args/
    proj = tmp_path / "proj"
    _write(proj, "train.py", TRAIN)
    _write(proj, "component/argument.py", ARGUMENTS)
    _write(proj, "train_args/sft/qwen.json", CONFIG)
    result = cli("check", "proj", "--no-cache", cwd=tmp_path)
    assert "unknown key 'lora_rank'" not in result.out
    assert "unknown key 'max_seq_length'" not in result.out
    # a real typo of a TrainingArguments key is still reported, with its file and line
    assert "qwen.json:11:5: PF601 unknown key 'logging_step'" in result.out
