"""PF535: a fresh LoRA adapter merged away before training (Bunny issue 112's shape), run the way a
user runs `preflight check`."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def check(cli, tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    (tmp_path / "train.py").write_text(textwrap.dedent(text), encoding="utf-8")
    result = cli("check", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    doc = json.loads(result.out)
    return [(f["code"], f["line"], f["message"]) for f in doc["findings"] if f["code"] == "PF535"]


MERGED = """\
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    def main(train_ds):
        model = AutoModelForCausalLM.from_pretrained(
            "microsoft/phi-2", quantization_config=BitsAndBytesConfig(load_in_4bit=True))
        model = prepare_model_for_kbit_training(model)
        model = get_peft_model(model, LoraConfig(r=64, target_modules=["q_proj", "v_proj"]))
        model = model.merge_and_unload()
        trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds)
        trainer.train()
    """


def test_a_merge_between_get_peft_model_and_the_trainer_is_an_error(cli, tmp_path):
    found = check(cli, tmp_path, MERGED)
    assert [(c, line) for c, line, _ in found] == [("PF535", 9)]
    assert "purely quantized" in found[0][2]


def test_without_the_merge_it_is_quiet(cli, tmp_path):
    text = MERGED.replace("        model = model.merge_and_unload()\n", "")
    assert text != MERGED
    assert check(cli, tmp_path, text) == []


def test_merging_after_training_is_quiet(cli, tmp_path):
    text = MERGED.replace("        model = model.merge_and_unload()\n", "") + \
        "        merged = trainer.model.merge_and_unload()\n        merged.save_pretrained('m')\n"
    assert check(cli, tmp_path, text) == []


def test_a_full_precision_base_says_nothing_is_left_to_train(cli, tmp_path):
    text = MERGED.replace(", quantization_config=BitsAndBytesConfig(load_in_4bit=True)", "") \
        .replace("        model = prepare_model_for_kbit_training(model)\n", "") \
        .replace("BitsAndBytesConfig, ", "").replace(", prepare_model_for_kbit_training", "")
    found = check(cli, tmp_path, text)
    assert [c for c, _, _ in found] == ["PF535"]
    assert "purely quantized" not in found[0][2] and "nothing to train" in found[0][2]


def test_a_new_adapter_after_the_merge_is_quiet(cli, tmp_path):
    text = MERGED.replace("        model = model.merge_and_unload()\n",
                          "        model = model.merge_and_unload()\n"
                          "        model = get_peft_model(model, LoraConfig(r=8, target_modules=['q_proj']))\n")
    assert check(cli, tmp_path, text) == []
