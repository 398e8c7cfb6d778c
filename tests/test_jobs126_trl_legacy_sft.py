"""jobs126: TRL's legacy ``SFTTrainer(max_seq_length=..., packing=...)`` keywords (in-sample miss of the
real-jobs set held-out-48), on a fixture of our own copying a real shape, with twins that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from preflight.plan import TrainingPlan

# yyDing1/ScaleQuest @ 74c12c2e3245bdaec1e23f74cd58eb9230ba7d38:
# src/train_question_generator/qft_train/train.py:17-80 (an HfArgumentParser over one ScriptArguments
# dataclass with max_length: int = 4096), :148-158 SFTTrainer(..., dataset_text_field="text",
# max_seq_length=script_args.max_length, packing=True); scripts/run_qwen2_qft.sh passes --max_length 256.
SCRIPT = """\
    from dataclasses import dataclass, field
    from typing import Optional

    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser, TrainingArguments
    from trl import SFTTrainer


    @dataclass
    class ScriptArguments:
        per_device_train_batch_size: Optional[int] = field(default=1)
        model_path: Optional[str] = field(default="gpt2")
        max_length: Optional[int] = field(default=4096)
        output_dir: Optional[str] = field(default="./out")


    script_args = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()[0]
    training_args = TrainingArguments(output_dir=script_args.output_dir,
                                      per_device_train_batch_size=script_args.per_device_train_batch_size)
    model = AutoModelForCausalLM.from_pretrained(script_args.model_path)
    tokenizer = AutoTokenizer.from_pretrained(script_args.model_path)
    dataset = load_dataset("openai/gsm8k", "main")
    trainer = SFTTrainer(
        model=model,
        tokenizer=tokenizer,
        train_dataset=dataset["train"],
        args=training_args,
        dataset_text_field="text",
        max_seq_length=script_args.max_length,
        packing=True,
    )
    trainer.train()
"""


def _values(plan: dict, field: str) -> list:
    return [f.value for f in TrainingPlan.from_dict(plan).facts(field)]


def test_legacy_keywords_give_the_row_length_from_the_launch_line_and_packing(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "train.py", "--", "--max_length", "256", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is not None and seq.value == 256
    assert seq.source.kind == "cli" and "max_seq_length" in (seq.source.detail or "")
    padding = fact(plan, "data.padding")
    assert padding is not None and padding.value == "packed"
    assert "SFTTrainer" in (padding.source.detail or "")


def test_legacy_keyword_falls_back_to_the_declared_default(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "data.seq_len").value == 4096


def test_literal_keywords_are_read_and_packing_false_claims_no_packing(cli, tmp_path):
    text = SCRIPT.replace("max_seq_length=script_args.max_length", "max_seq_length=512") \
                 .replace("packing=True", "packing=False")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "data.seq_len").value == 512
    assert "packed" not in _values(plan, "data.padding")


def test_a_length_not_known_statically_stays_unknown(cli, tmp_path):
    # max_seq_length from a computed local: not read, and the parser's max_length (a field the script
    # never hands to the trainer here) is not taken for it
    text = SCRIPT.replace("max_seq_length=script_args.max_length", "max_seq_length=tokenizer.model_max_length") \
                 .replace("packing=True", "packing=pack")
    write(tmp_path, {"train.py": text.replace("trainer = SFTTrainer(", "pack = len(dataset) > 10\n    trainer = SFTTrainer(")})
    plan = plan_of(cli, "train.py", "--", "--max_length", "256", cwd=tmp_path)
    assert fact(plan, "model.ref").value.endswith("gpt2")  # the script was read
    assert 256 not in _values(plan, "data.seq_len")
    assert "packed" not in _values(plan, "data.padding")


def test_skip_prepare_dataset_leaves_length_and_packing_to_the_script(cli, tmp_path):
    # SFT scripts that tokenize themselves pass dataset_kwargs={"skip_prepare_dataset": True}: TRL then
    # neither packs nor cuts to max_seq_length, so neither is claimed
    text = SCRIPT.replace("packing=True,", 'packing=True,\n        dataset_kwargs={"skip_prepare_dataset": True},')
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "--max_length", "256", cwd=tmp_path)
    assert 256 not in _values(plan, "data.seq_len")
    assert "packed" not in _values(plan, "data.padding")
