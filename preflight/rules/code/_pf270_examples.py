"""PF270 examples: DataCollatorWithPadding as a causal-LM trainer's collator, rows without labels (bad: the
pinned line; good: silent)."""

from __future__ import annotations

from textwrap import dedent

# a notebook's SFT run with a collator added (unslothai/unsloth issue 455's shape)
_SFT = dedent("""\
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorWithPadding, TrainingArguments
    from trl import SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    dataset = load_dataset("yahma/alpaca-cleaned", split="train")
    dataset = dataset.map(lambda ex: {{"text": ex["instruction"] + "\\n" + ex["output"] + tokenizer.eos_token}})
    {collator_line}
    trainer = SFTTrainer(
        model=model,
        tokenizer=tokenizer,
        {collator_arg}
        train_dataset=dataset,
        dataset_text_field="text",
        args=TrainingArguments(output_dir="out", per_device_train_batch_size=2),
    )
    trainer.train()
    """)

# a plain Trainer over tokenized text
_TRAINER = dedent("""\
    from datasets import load_dataset
    from transformers import ({model_class}, AutoTokenizer, DataCollatorWithPadding, Trainer,
                              TrainingArguments)

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token
    model = {model_class}.from_pretrained("gpt2")
    raw = load_dataset("imdb", split="train")
    ds = raw.map(lambda b: tokenizer(b["text"], truncation=True), batched=True, remove_columns=raw.column_names)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=ds,
                      data_collator=DataCollatorWithPadding(tokenizer){mark})
    trainer.train()
    """)

PF270_BAD = [
    _SFT.format(collator_line="data_collator = DataCollatorWithPadding(tokenizer=tokenizer)",
                collator_arg="data_collator=data_collator,  # warning: PF270"),
    _TRAINER.format(model_class="AutoModelForCausalLM", mark=")  # warning: PF270").replace(
        "# warning: PF270)", "# warning: PF270"),
]

PF270_GOOD = [
    # the fix: SFTTrainer's own collator builds the labels
    _SFT.format(collator_line="", collator_arg=""),
    # tricky: the language-modeling collator copies the inputs into labels
    _TRAINER.format(model_class="AutoModelForCausalLM", mark="").replace(
        "DataCollatorWithPadding(tokenizer)", "DataCollatorForLanguageModeling(tokenizer, mlm=False)").replace(
        "DataCollatorWithPadding, Trainer", "DataCollatorForLanguageModeling, Trainer"),
    # tricky: the tokenize function builds the labels itself (padded to one length)
    _TRAINER.format(model_class="AutoModelForCausalLM", mark="").replace(
        'lambda b: tokenizer(b["text"], truncation=True)', "tokenize").replace(
        'raw = load_dataset("imdb", split="train")', dedent('''\
            raw = load_dataset("imdb", split="train")


            def tokenize(b):
                enc = tokenizer(b["text"], truncation=True, padding="max_length", max_length=128)
                enc["labels"] = [[t if m else -100 for t, m in zip(ids, mask)]
                                 for ids, mask in zip(enc["input_ids"], enc["attention_mask"])]
                return enc

            ''')),
    # tricky: a sequence classifier gets its loss from the `label` column
    _TRAINER.format(model_class="AutoModelForSequenceClassification", mark="").replace(
        "tokenizer.pad_token = tokenizer.eos_token\n", "").replace('"gpt2"', '"bert-base-uncased"'),
]
