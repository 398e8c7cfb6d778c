"""PF590 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF590_BAD = [
    # unslothai/notebooks#27 shape: text + audio codes of every length, labels copied, no collator
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments


    def build_example(tokenizer, codec):
        def encode(example):
            ids = tokenizer(example["text"])["input_ids"] + codec(example["audio"])
            return {"input_ids": ids, "attention_mask": [1] * len(ids), "labels": list(ids)}

        return encode


    def main(dataset, codec):
        tokenizer = AutoTokenizer.from_pretrained("some/tts-model")
        model = AutoModelForCausalLM.from_pretrained("some/tts-model")
        dataset = dataset.map(build_example(tokenizer, codec), remove_columns=dataset.column_names)
        trainer = Trainer(  # error: PF590
            model=model,
            args=TrainingArguments(output_dir="out", per_device_train_batch_size=4),
            train_dataset=dataset,
            processing_class=tokenizer,
        )
        trainer.train()
"""),
    # a classifier's texts truncated but not padded, and no tokenizer given to the Trainer
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=256)


    tokenized = raw.map(tokenize, batched=True)
    args = TrainingArguments(output_dir="out")
    Trainer(model=model, args=args, train_dataset=tokenized["train"],  # error: PF590
            eval_dataset=tokenized["test"]).train()
"""),
    # prompt-masked labels of every length, given to a collator that pads only the model inputs (and
    # would rebuild the masked labels from input_ids even if the rows were even: PF465)
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def process(samples):
        full = tokenizer.apply_chat_template(samples["chat"], tokenize=True)
        prompts = tokenizer.apply_chat_template(samples["prompt"], tokenize=True, add_generation_prompt=True)
        labels = [[-100] * len(p) + f[len(p):] for p, f in zip(prompts, full)]
        return {"input_ids": full, "labels": labels}


    train_ds = raw.map(process, batched=True, remove_columns=raw.column_names)
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)  # warning: PF465
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"),  # error: PF590
                      train_dataset=train_ds, data_collator=collator)
"""),
    # transformers issue 24546: a batched map copies every row's ids into labels, row by row, and the MLM
    # collator pads only the tokenizer's fields
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def tokenize(batch):
        enc = tokenizer(batch["text"], truncation=True, max_length=256)
        enc["labels"] = [ids.copy() for ids in enc["input_ids"]]
        return enc


    data = raw.map(tokenize, batched=True, remove_columns=["text"])
    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm_probability=0.15)
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=data,  # error: PF590
            data_collator=collator).train()
"""),
]

PF590_GOOD = [
    # the fix: a collator that pads input_ids with the pad token and labels with -100
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments


    def build_example(tokenizer, codec):
        def encode(example):
            ids = tokenizer(example["text"])["input_ids"] + codec(example["audio"])
            return {"input_ids": ids, "attention_mask": [1] * len(ids), "labels": list(ids)}

        return encode


    def main(dataset, codec):
        tokenizer = AutoTokenizer.from_pretrained("some/tts-model")
        model = AutoModelForCausalLM.from_pretrained("some/tts-model")
        dataset = dataset.map(build_example(tokenizer, codec), remove_columns=dataset.column_names)
        trainer = Trainer(
            model=model,
            args=TrainingArguments(output_dir="out", per_device_train_batch_size=4),
            train_dataset=dataset,
            data_collator=DataCollatorForSeq2Seq(tokenizer, padding=True, label_pad_token_id=-100),
        )
        trainer.train()
"""),
    # tricky-correct: the tokenizer is given to the Trainer and the rows carry a class label only,
    # so the default DataCollatorWithPadding pads them
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=256)


    tokenized = raw.map(tokenize, batched=True)
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=tokenized["train"],
            tokenizer=tokenizer).train()
"""),
    # tricky-correct: every row padded to max_length, the default collator stacks them
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    def tokenize(batch):
        out = tokenizer(batch["text"], truncation=True, max_length=128, padding="max_length")
        out["labels"] = [[t if m else -100 for t, m in zip(ids, mask)]
                         for ids, mask in zip(out["input_ids"], out["attention_mask"])]
        return out


    train = raw.map(tokenize, batched=True)
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train).train()
"""),
    # tricky-correct (run_clm.py): the tokenized texts are regrouped into equal blocks before the Trainer
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments, default_data_collator


    def tokenize_function(examples):
        return tokenizer(examples["text"])


    def group_texts(examples, block_size=1024):
        concatenated = {k: sum(examples[k], []) for k in examples.keys()}
        total = (len(concatenated["input_ids"]) // block_size) * block_size
        result = {k: [t[i:i + block_size] for i in range(0, total, block_size)] for k, t in concatenated.items()}
        result["labels"] = result["input_ids"].copy()
        return result


    tokenized = raw.map(tokenize_function, batched=True, remove_columns=["text"])
    lm_datasets = tokenized.map(group_texts, batched=True)
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=lm_datasets["train"]).train()
"""),
    # tricky-correct: unpadded rows without labels, and the LM collator builds the labels after padding
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=512)


    train_ds = raw.map(tokenize, batched=True, remove_columns=["text"])
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds,
            data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)).train()
"""),
    # tricky-correct: the row-by-row copy of rows padded to max_length
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def tokenize(batch):
        enc = tokenizer(batch["text"], truncation=True, max_length=256, padding="max_length")
        enc["labels"] = [list(ids) for ids in enc["input_ids"]]
        return enc


    data = raw.map(tokenize, batched=True, remove_columns=["text"])
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=data,
            data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)).train()
"""),
]
