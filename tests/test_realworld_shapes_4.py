"""Shapes of the fourth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


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


def fact(plan: dict, field: str):
    """The fact preflight uses: the plan's winning fact."""
    from preflight.plan import TrainingPlan

    return TrainingPlan.from_dict(plan).resolve(field)


def winner(plan: dict, field: str):
    best = fact(plan, field)
    return None if best is None else best.value


# OpenBMB/MiniCPM finetune/finetune.py @ 0fcc3d08330ee612d59d58e312a778ae78165d97: the 4-bit
# config sits under ``if qlora:`` where ``qlora`` is a parameter of the helper, passed once as
# ``qlora=training_args.qlora`` (a TrainingArguments subclass field, default False); the same
# name is also a class attribute of that subclass.
MINICPM = """\
    from dataclasses import dataclass, field

    import torch
    import transformers
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="openbmb/MiniCPM-2B-sft-bf16")


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        optim: str = field(default="adamw_torch")
        model_max_length: int = field(default=512)
        use_lora: bool = field(default=False)
        qlora: bool = field(default=False)


    def load_model_and_tokenizer(model_path: str, use_lora: bool = True, qlora: bool = False,
                                 bf16: bool = False):
        dtype = torch.bfloat16 if bf16 else torch.float32
        if qlora:
            quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4")
            model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=dtype,
                                                         quantization_config=quantization_config)
        else:
            model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=dtype)
        if use_lora:
            from peft import LoraConfig, get_peft_model
            lora_config = LoraConfig(r=64, lora_alpha=32)
            model = get_peft_model(model, lora_config)
        return model


    if __name__ == "__main__":
        parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = load_model_and_tokenizer(
            model_path=model_args.model_name_or_path,
            use_lora=training_args.use_lora,
            qlora=training_args.qlora,
            bf16=training_args.bf16,
        )
        trainer = Trainer(model=model, args=training_args)
        trainer.train()
"""


def test_parameter_decided_by_its_one_call_is_lora_not_qlora(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": MINICPM})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--bf16", "--use_lora", cwd=tmp_path)
    assert winner(plan, "task.mode") == "lora"
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "precision.weights_bits") != 4


def test_parameter_decided_true_by_the_launch_line_is_qlora(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": MINICPM})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--use_lora", "--qlora", "True", cwd=tmp_path)
    assert winner(plan, "task.mode") == "qlora"
    assert winner(plan, "precision.weights_bits") == 4


def test_two_calls_that_disagree_leave_the_parameter_unknown() -> None:
    import ast

    from preflight.script_index import ScriptIndex
    from preflight.sources import SourceText, parse_python

    text = textwrap.dedent("""\
        def load(qlora=False):
            if qlora:
                pass
        load(qlora=True)
        load()
        def other(bits=4):
            if bits:
                pass
        other()
    """)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    idx = ScriptIndex(parsed)
    tests = [n.test for n in ast.walk(parsed.tree) if isinstance(n, ast.If)]
    assert idx.truth(tests[0]) is None  # True at one call, False at the other
    assert idx.truth(tests[1]) is True  # the default, at its only call


def test_qlora_resting_on_an_undecided_4bit_config_is_not_high(cli, tmp_path: Path) -> None:
    # the same shape with the flag from a source preflight cannot read: the 4-bit config may or
    # may not run, so a qlora task is a guess (medium at most), never high
    text = MINICPM.replace("qlora=training_args.qlora,", "qlora=os.environ.get('QLORA') == '1',") \
        .replace("import torch\n", "import os\n    import torch\n")
    write(tmp_path, {"finetune.py": text})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--use_lora", cwd=tmp_path)
    best = fact(plan, "task.mode")
    assert best is not None
    if best.value == "qlora":
        assert best.confidence != "high"
