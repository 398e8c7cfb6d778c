"""``get_peft_model`` with a peft configuration that is not LoRA (jobs set 49, tohtana/ds_repro_2746
``run_seq2seq_deepspeed_peft.py:109-110`` @ 3e7f5ac: ``PrefixTuningConfig(task_type=...,
num_virtual_tokens=20)``): PEFT trains, but not LoRA, so ``peft.method`` is not written as lora;
a LoraConfig given the same way stays lora."""

from __future__ import annotations

import json

import pytest

_SCRIPT = """\
from peft import get_peft_model, {cls}, TaskType
from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-base")
peft_config = {call}
model = get_peft_model(model, peft_config)
args = Seq2SeqTrainingArguments(output_dir="out", per_device_train_batch_size=8)
Seq2SeqTrainer(model=model, args=args).train()
"""


def _method(cli, tmp_path, cls: str, call: str):
    (tmp_path / "train.py").write_text(_SCRIPT.format(cls=cls, call=call))
    res = cli("audit", "train.py", "--emit-plan", "json", cwd=tmp_path)
    facts = json.loads(res.out)["fields"].get("peft.method")
    return facts[0]["value"] if facts else None


@pytest.mark.parametrize("cls,call", [
    ("PrefixTuningConfig", "PrefixTuningConfig(task_type=TaskType.SEQ_2_SEQ_LM, num_virtual_tokens=20)"),
    ("PromptTuningConfig", "PromptTuningConfig(task_type=TaskType.SEQ_2_SEQ_LM, num_virtual_tokens=8)"),
    ("IA3Config", "IA3Config(task_type=TaskType.SEQ_2_SEQ_LM)"),
])
def test_a_non_lora_peft_config_is_not_called_lora(cli, tmp_path, cls, call):
    assert _method(cli, tmp_path, cls, call) is None


def test_a_lora_config_given_the_same_way_stays_lora(cli, tmp_path):
    assert _method(cli, tmp_path, "LoraConfig", "LoraConfig(r=8, task_type=TaskType.SEQ_2_SEQ_LM)") == "lora"
