"""Behaviours closed while reading the transformers family's misses across the 19 bug sets (issue 18,
branch det34; every set is in-sample for these rules). The rules' own examples are pinned by the
meta-tests; these run ``preflight check``/``audit`` the way a user does, on programs written here."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

CODES = ("PF411", "PF488", "PF590", "PF591", "PF592", "PF593", "PF594")


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")


def check(cli, tmp_path: Path, text: str) -> list[tuple[str, int]]:
    _write(tmp_path, {"train.py": text})
    result = cli("check", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], f["line"]) for f in json.loads(result.out)["findings"] if f["code"] in CODES]


def audit(cli, tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int]]:
    _write(tmp_path, files)
    result = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], f["line"]) for f in json.loads(result.out)["findings"] if f["code"] in CODES]


LOSS_METRIC = """\
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="epoch", save_strategy="epoch",
                             load_best_model_at_end=True, metric_for_best_model="eval_qa_loss")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=val).train()
    """


def test_a_loss_metric_is_flagged_on_a_pin_before_4_42_only(cli, tmp_path):
    assert audit(cli, tmp_path, {"train.py": LOSS_METRIC, "requirements.txt": "transformers==4.41.2\n"}) == [
        ("PF591", 4)]
    # a lower bound may install 4.42+, which reads the "loss" suffix itself
    assert audit(cli, tmp_path, {"train.py": LOSS_METRIC, "requirements.txt": "transformers>=4.30\n"}) == []


def test_an_error_rate_metric_without_direction_is_flagged_on_any_version(cli, tmp_path):
    text = LOSS_METRIC.replace("eval_qa_loss", "eval_cer")
    assert audit(cli, tmp_path, {"train.py": text, "requirements.txt": "transformers==4.57.1\n"}) == [("PF591", 4)]
    fixed = text.replace('"eval_cer")', '"eval_cer", greater_is_better=False)')
    assert audit(cli, tmp_path, {"train.py": fixed, "requirements.txt": "transformers==4.57.1\n"}) == []


RAGGED = """\
    from transformers import Trainer, TrainingArguments


    def encode(example):
        ids = tokenizer(example["text"], truncation=True, max_length=512)["input_ids"]
        return {"input_ids": ids, "labels": list(ids)}


    train = raw.map(encode)
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, EXTRA).train()
    """


def test_ragged_rows_without_a_padding_collator_fail_at_the_trainer(cli, tmp_path):
    assert check(cli, tmp_path, RAGGED.replace(", EXTRA", "")) == [("PF590", 10)]
    # a tokenizer alone pads input_ids but not the copied labels
    assert check(cli, tmp_path, RAGGED.replace("EXTRA", "processing_class=tokenizer")) == [("PF590", 10)]
    # a collator that pads labels too, or arguments the rule cannot read
    assert check(cli, tmp_path, RAGGED.replace("EXTRA", "data_collator=DataCollatorForSeq2Seq(tokenizer)")) == []
    assert check(cli, tmp_path, RAGGED.replace("EXTRA", "**extra")) == []


TUPLE_LOGITS = """\
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def keep(logits, labels):
        return logits.argmax(-1)


    model = AutoModelForSeq2SeqLM.from_pretrained("facebook/bart-base")
    args = Seq2SeqTrainingArguments(output_dir="out"{extra})
    Seq2SeqTrainer(model=model, args=args, preprocess_logits_for_metrics=keep).train()
    """


def test_argmax_on_an_encoder_decoder_output_tuple_is_flagged_unless_it_generates(cli, tmp_path):
    assert check(cli, tmp_path, TUPLE_LOGITS.format(extra="")) == [("PF592", 5)]
    assert check(cli, tmp_path, TUPLE_LOGITS.format(extra=", predict_with_generate=True")) == []


def test_a_collator_padding_its_batch_targets_as_labels_is_flagged(cli, tmp_path):
    text = """\
        def collate(examples, tokenizer):
            batch = tokenizer([e["src"] for e in examples], padding=True, return_tensors="pt")
            targets = tokenizer([e["tgt"] for e in examples], padding="longest", return_tensors="pt")
            batch["labels"] = targets["input_ids"]
            return batch
        """
    assert check(cli, tmp_path, text) == [("PF488", 4)]
    masked = text.replace('targets["input_ids"]', 'targets["input_ids"].masked_fill(targets["attention_mask"] == 0, -100)')
    assert check(cli, tmp_path, masked) == []


def test_a_full_fine_tune_loaded_in_float32_for_bf16_is_not_a_memory_finding(cli, tmp_path):
    full = """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        Trainer(model=model, args=TrainingArguments(output_dir="out", bf16=True), train_dataset=ds).train()
        """
    pins = {"requirements.txt": "transformers==4.46.3\n"}
    assert audit(cli, tmp_path, {"train.py": full, **pins}) == []
    lora = """\
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        model = get_peft_model(model, LoraConfig(task_type="CAUSAL_LM"))
        Trainer(model=model, args=TrainingArguments(output_dir="out", bf16=True), train_dataset=ds).train()
        """
    assert audit(cli, tmp_path, {"train.py": lora, **pins}) == [("PF411", 4)]


def test_save_period_longer_than_the_run_and_fp16_weights_without_amp(cli, tmp_path):
    text = """\
        import torch
        from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

        model = AutoModelForSequenceClassification.from_pretrained("roberta-base", torch_dtype=torch.float16)
        args = TrainingArguments(output_dir="out", max_steps=400, eval_strategy="steps", eval_steps=100,
                                 save_steps=800, load_best_model_at_end=True)
        Trainer(model=model, args=args, train_dataset=train, eval_dataset=val).train()
        """
    assert sorted(audit(cli, tmp_path, {"train.py": text})) == [("PF593", 6), ("PF594", 4)]
