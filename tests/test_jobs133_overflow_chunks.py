"""jobs133 (in-sample for jobs set held-out-50): the Hugging Face course's causal-LM tokenize function, which
keeps only the full ``max_length`` chunks of ``return_overflowing_tokens``, gives rows of one length
(adapters/overflow_chunks.py). Fixtures of our own rebuilding Miraclove/DevAssistant @ 1e0c19f
``dev-assistant-model/deepspeed/pretrain/train.py:143-155,209``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    from datasets import load_dataset
    from transformers import (AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer,
                              TrainingArguments)

    context_length = 1024


    def main():
        tokenizer = AutoTokenizer.from_pretrained("bigcode/starcoderbase-1b")
        model = AutoModelForCausalLM.from_pretrained("bigcode/starcoderbase-1b")
        raw_datasets = load_dataset("bigcode/the-stack-smol")

        def tokenize(element):
            outputs = tokenizer(
                element["content"],
                truncation=True,
                max_length=context_length,
                return_overflowing_tokens=True,
                return_length=True,
            )
            input_batch = []
            for length, input_ids in zip(outputs["length"], outputs["input_ids"]):
                KEEP
                    input_batch.append(input_ids)
            return {"input_ids": input_batch}

        tokenized = raw_datasets.map(tokenize, batched=True, remove_columns=raw_datasets["train"].column_names)
        tokenizer.pad_token = tokenizer.eos_token
        data_collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=1)
        trainer = Trainer(model=model, args=args, data_collator=data_collator, train_dataset=tokenized["train"])
        trainer.train()


    if __name__ == "__main__":
        main()
"""


def _padding(cli, tmp_path, keep: str):
    write(tmp_path, {"train.py": SCRIPT.replace("KEEP", keep)})
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "data.padding")


def test_only_full_chunks_kept_is_max_length(cli, tmp_path):
    padding = _padding(cli, tmp_path, "if length == context_length:")
    assert padding.value == "max_length"
    assert padding.confidence == "medium"
    assert padding.source.line == 14  # the tokenizer call


def test_the_comparison_either_way_round(cli, tmp_path):
    assert _padding(cli, tmp_path, "if context_length == length:").value == "max_length"


def test_twin_tails_kept_too_says_nothing(cli, tmp_path):
    padding = _padding(cli, tmp_path, "if length > 0:")
    assert padding is None or padding.value != "max_length"


def test_twin_another_bound_says_nothing(cli, tmp_path):
    padding = _padding(cli, tmp_path, "if length == 512:")
    assert padding is None or padding.value != "max_length"
