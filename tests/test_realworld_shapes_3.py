"""Shapes of the third held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own: a construct guarded by an option the launch line sets (FastChat ``train_lora.py``:
``BitsAndBytesConfig(...) if lora_args.q_lora else None`` with ``--q_lora False``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))


def plan_of(cli, *args: str, cwd: Path) -> dict:
    args = list(args)
    cut = args.index("--") if "--" in args else len(args)
    res = cli("audit", *args[:cut], "--emit-plan", "json", *args[cut:], cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def winner(plan: dict, field: str):
    facts = plan["fields"].get(field) or []
    best = facts[0] if facts else None
    return None if best is None else best["value"]


FASTCHAT_LORA = """\
    from dataclasses import dataclass, field

    import transformers
    from peft import LoraConfig, get_peft_model
    from transformers import BitsAndBytesConfig, Trainer


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")


    @dataclass
    class LoraArguments:
        lora_r: int = 8
        q_lora: bool = False


    def train():
        parser = transformers.HfArgumentParser(
            (ModelArguments, transformers.TrainingArguments, LoraArguments))
        model_args, training_args, lora_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(
            model_args.model_name_or_path,
            quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4")
            if lora_args.q_lora
            else None,
        )
        model = get_peft_model(model, LoraConfig(r=lora_args.lora_r))
        trainer = Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
    """


@pytest.mark.parametrize("flag,mode,bits", [("False", "lora", None), ("True", "qlora", 4)])
def test_a_conditional_expression_guarded_by_a_dataclass_option_follows_the_launch_line(cli, tmp_path, flag, mode,
                                                                                         bits):
    write(tmp_path, {"train_lora.py": FASTCHAT_LORA})
    plan = plan_of(cli, "train_lora.py", "--", "--model_name_or_path", "lmsys/vicuna-7b-v1.5",
                   "--output_dir", "out", "--q_lora", flag, cwd=tmp_path)
    assert winner(plan, "task.mode") == mode
    assert winner(plan, "precision.weights_bits") == bits


def test_without_the_flag_the_declared_default_decides(cli, tmp_path):
    write(tmp_path, {"train_lora.py": FASTCHAT_LORA})
    plan = plan_of(cli, "train_lora.py", "--", "--output_dir", "out", cwd=tmp_path)
    assert winner(plan, "task.mode") == "lora"  # q_lora: bool = False
    assert winner(plan, "precision.weights_bits") is None
