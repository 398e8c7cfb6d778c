"""jobs133 (in-sample for jobs set held-out-49): rows padded to max_length by a preparation script and read
back with ``load_from_disk`` are max_length, not the padding collator's "dynamic" (adapters/saved_padding.py).
Fixtures of our own rebuilding tohtana/ds_repro_2746 @ 3e7f5ac ``prepare_dataset.py:63-90`` and
``run_seq2seq_deepspeed_peft.py:90,116``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

PREPARE = """\
    import os

    from datasets import load_dataset
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("google/flan-t5-base")
    dataset = load_dataset("samsum")


    def preprocess_function(sample, PADDING):
        model_inputs = tokenizer(sample["dialogue"], max_length=512, padding=padding, truncation=True)
        labels = tokenizer(text_target=sample["summary"], max_length=128, padding=padding, truncation=True)
        model_inputs["labels"] = labels["input_ids"]
        return model_inputs


    tokenized_dataset = dataset.map(preprocess_function, batched=True)
    tokenized_dataset["train"].save_to_disk(os.path.join("data", "train"))
"""

TRAIN = """\
    import os

    from datasets import load_from_disk
    from transformers import (AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq, Seq2SeqTrainer,
                              Seq2SeqTrainingArguments)


    def main():
        tokenizer = AutoTokenizer.from_pretrained("google/flan-t5-base")
        model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-base")
        train_dataset = load_from_disk(os.path.join("data", "train"))
        data_collator = DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100, pad_to_multiple_of=8)
        args = Seq2SeqTrainingArguments(output_dir="out", per_device_train_batch_size=8)
        trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=train_dataset, data_collator=data_collator)
        trainer.train()


    if __name__ == "__main__":
        main()
"""


def _plan(cli, tmp_path, padding: str = 'padding="max_length"', extra: dict | None = None):
    write(tmp_path, {"prepare_dataset.py": PREPARE.replace("PADDING", padding), "train.py": TRAIN, **(extra or {})})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_rows_saved_padded_to_max_length_are_max_length(cli, tmp_path):
    padding = fact(_plan(cli, tmp_path), "data.padding")
    assert padding.value == "max_length"
    assert padding.confidence == "medium"
    assert padding.source.path == "prepare_dataset.py"


def test_twin_rows_saved_unpadded_keep_the_collators_dynamic(cli, tmp_path):
    assert fact(_plan(cli, tmp_path, padding="padding=False"), "data.padding").value == "dynamic"


def test_twin_two_saving_scripts_are_not_read(cli, tmp_path):
    other = PREPARE.replace("PADDING", "padding=True")
    plan = _plan(cli, tmp_path, extra={"prepare_other.py": other})
    assert fact(plan, "data.padding").value == "dynamic"
