"""Behaviours of the det79 plan rules that the rule examples cannot show: a job launched by a
launch script, where the model (PF386/PF387) or a TrainingArguments value (PF388) is written on the
launch line and the rest in the script; the finding sits in the script and its evidence names the
launch script's line (programs written here, run through the CLI as a user does)."""

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


def audit(cli, tmp_path: Path, codes: str) -> list[dict]:
    result = cli("audit", "run.sh", "--select", codes, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [f for f in json.loads(result.out)["findings"] if f["code"] in codes.split(",")]


LORA_JOB = """\
    from dataclasses import dataclass, field

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-350m")


    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    lora = LoraConfig(r=8, target_modules={targets}, task_type="CAUSAL_LM")
    model = get_peft_model(model, lora)
    Trainer(model=model, args=training_args).train()
"""


def launch(model: str) -> str:
    return ("#!/bin/bash\n"
            f"MODEL={model}\n"
            "torchrun --nproc_per_node 2 train.py \\\n"
            "    --model_name_or_path $MODEL \\\n"
            "    --output_dir out --bf16\n")


@pytest.mark.parametrize("model", ["bigscience/bloom-560m", "tiiuae/falcon-7b", "EleutherAI/pythia-1b", "gpt2"])
def test_pf386_llama_names_on_the_launched_family_report_both_places(cli, tmp_path, model):
    write(tmp_path, "train.py", LORA_JOB.format(targets='["q_proj", "v_proj"]'))
    write(tmp_path, "run.sh", launch(model))
    found = audit(cli, tmp_path, "PF386,PF387")
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("PF386", "train.py", 14)]
    assert [(e["path"], e["line"]) for e in found[0]["evidence"]] == [("run.sh", 3)]
    assert model in found[0]["evidence"][0]["message"]


@pytest.mark.parametrize("model,targets", [
    ("meta-llama/Llama-2-7b-hf", '["q_proj", "v_proj"]'),  # the script's names fit the launched Llama
    ("bigscience/bloom-560m", '["query_key_value", "dense"]'),
    ("someone/private-model", '["q_proj", "v_proj"]'),  # not in the catalog: not judged
])
def test_pf386_is_silent_when_the_names_fit_or_the_family_is_unknown(cli, tmp_path, model, targets):
    write(tmp_path, "train.py", LORA_JOB.format(targets=targets))
    write(tmp_path, "run.sh", launch(model))
    assert audit(cli, tmp_path, "PF386,PF387") == []


def test_pf387_reports_the_misspelled_name_only_on_the_launched_model(cli, tmp_path):
    write(tmp_path, "train.py", LORA_JOB.format(targets='["q_proj", "v_proj", "o_prj"]'))
    write(tmp_path, "run.sh", launch("Qwen/Qwen2-7B"))
    found = audit(cli, tmp_path, "PF386,PF387")
    assert [(f["code"], f["line"]) for f in found] == [("PF387", 14)]
    assert "`o_prj`" in found[0]["message"] and "`q_proj`" not in found[0]["message"]


WARMUP_JOB = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
"""


def test_pf388_both_warmups_on_the_launch_line_name_the_launch_line(cli, tmp_path):
    write(tmp_path, "train.py", WARMUP_JOB)
    write(tmp_path, "run.sh", "#!/bin/bash\n\ntorchrun --nproc_per_node 2 train.py --output_dir out \\\n"
                              "    --warmup_steps 500 --warmup_ratio 0.03\n")
    found = audit(cli, tmp_path, "PF388")
    assert [(f["path"], f["line"]) for f in found] == [("train.py", 3)]
    assert [(e["path"], e["line"]) for e in found[0]["evidence"]] == [("run.sh", 3)]
    assert "500 steps" in found[0]["message"]


@pytest.mark.parametrize("flags", ["--warmup_steps 0 --warmup_ratio 0.03", "--warmup_ratio 0.03",
                                   "--warmup_steps 500", "--warmup_steps 100 --warmup_ratio 0.0"])
def test_pf388_is_silent_when_one_warmup_decides(cli, tmp_path, flags):
    write(tmp_path, "train.py", WARMUP_JOB)
    write(tmp_path, "run.sh", f"#!/bin/bash\ntorchrun --nproc_per_node 2 train.py --output_dir out {flags}\n")
    assert audit(cli, tmp_path, "PF388") == []
