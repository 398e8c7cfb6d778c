"""hunt45: false positives of the config rules found on real public code (docs/corpus.md, "Rules on
real code (hunt45)"); the code rules' real shapes are tricky-correct examples beside each rule."""

from __future__ import annotations

import textwrap
from pathlib import Path

TRL_TRAIN = """\
    from dataclasses import dataclass, field

    from trl import SFTConfig, TrlParser


    @dataclass
    class ScriptArguments:
        aux_loss_coeff: float = field(default=1e-3)


    if __name__ == "__main__":
        parser = TrlParser((ScriptArguments, SFTConfig))
        script_args, training_args = parser.parse_args_and_config()
"""
HF_TRAIN = """\
    import sys

    from transformers import HfArgumentParser, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_yaml_file(sys.argv[1])
"""
SFT = """\
    output_dir: out/sft
    per_device_train_batch_size: 1
    gradient_accumulation_steps: 8
    num_train_epochs: 2
    learning_rate: 5e-6
    resume_from_checkpoint: false
    logging_steps: 1
    save_strategy: epoch
    max_length: 4096
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_trl_parser_config_float_arrives_as_a_number(cli, tmp_path):
    # Aria's shape: TrlParser(...).parse_args_and_config() makes each YAML key an argparse default,
    # and argparse converts a string default with the field's type (float("5e-6"))
    _write(tmp_path, "pyproject.toml", "[project]\nname = 'p'\n")
    _write(tmp_path, "p/train.py", TRL_TRAIN)
    _write(tmp_path, "recipes/sft.yaml", SFT)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "sft.yaml:5:1: PF603" in result.out and "with TrlParser, as an argparse default" in result.out
    # a note, not an error; `resume_from_checkpoint: false` is what Trainer.train takes: no PF602
    assert "Found 1 finding (1 note)" in result.out and "PF602" not in result.out


def test_parse_yaml_file_config_float_stays_a_string(cli, tmp_path):
    # the same file handed to HfArgumentParser.parse_yaml_file: the string reaches TrainingArguments
    _write(tmp_path, "pyproject.toml", "[project]\nname = 'p'\n")
    _write(tmp_path, "p/train.py", HF_TRAIN)
    _write(tmp_path, "recipes/sft.yaml", SFT)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "sft.yaml:5:1: PF603 5e-6 is read as the string '5e-6', not a number" in result.out
    assert "argparse" not in result.out


def test_llama_factory_keys_in_a_model_repository_are_no_typos(cli, tmp_path):
    # Qwen3's examples/llama-factory/*.yaml: LLaMA-Factory's `lora_rank` is not `local_rank` misspelt;
    # a real misspelling of a TrainingArguments key is still reported
    _write(tmp_path, "examples/llama-factory/lora-sft.yaml", """\
        model_name_or_path: Qwen/Qwen2-7B-Instruct
        stage: sft
        do_train: true
        finetuning_type: lora
        lora_target: all
        lora_rank: 16
        lora_alpha: 16
        output_dir: saves/qwen2-7b/lora/sft
        per_device_train_batch_size: 1
        gradient_accumulation_steps: 8
        learning_rate: 1.0e-4
        num_train_epochs: 3.0
        loging_steps: 10
    """)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "'lora_rank'" not in result.out
    assert "lora-sft.yaml:13:1: PF601 unknown key 'loging_steps'" in result.out
