"""PF465 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_DATA = textwrap.dedent("""
    import transformers
    from datasets import load_dataset


    def train(model, tokenizer, data_path="alpaca_data.json"):
        def generate_and_tokenize_prompt(point):
            full = tokenizer(point["instruction"] + point["output"], truncation=True, max_length=256)
            n_user = len(tokenizer(point["instruction"])["input_ids"])
            full["labels"] = [-100] * n_user + full["input_ids"][n_user:]
            return full

        train_data = load_dataset("json", data_files=data_path)["train"].map(generate_and_tokenize_prompt)
        trainer = transformers.Trainer(
            model=model,
            train_dataset=train_data,
            args=transformers.TrainingArguments(output_dir="out", per_device_train_batch_size=4),
            data_collator={collator},
        )
        trainer.train()
""")

# transformers issue 26357's shape: the labels are a copy of the ids, masked item by item
_ITEMWISE = textwrap.dedent("""
    import transformers


    def tokenize(prompt, response):
        full = tokenizer(prompt + response + tokenizer.eos_token, truncation=True, max_length=256,
                         padding="max_length")
        prompt_len = len(tokenizer(prompt)["input_ids"])
        labels = list(full["input_ids"])
        for i in range(len(labels)):
            if {test}:
                labels[i] = -100
        return {{"input_ids": full["input_ids"], "attention_mask": full["attention_mask"], "labels": labels}}


    data = raw.map(lambda ex: tokenize(ex["instruction"], ex["output"]))
    trainer = transformers.Trainer(model=model, train_dataset=data, args=transformers.TrainingArguments("out"),
                                   data_collator={collator}
""")

BAD_EXAMPLES = [
    _ITEMWISE.format(test='i < prompt_len or full["attention_mask"][i] == 0',
                     collator="transformers.DataCollatorForLanguageModeling(tokenizer, mlm=False))  # warning: PF465"),
    # Alpaca-CoT issue 143: the prompt masking lost in the collator
    _DATA.replace("{collator},", "transformers.DataCollatorForLanguageModeling(tokenizer, mlm=False),"
                                 "  # warning: PF465"),
    # oobabooga textgen issue 4031: the masked labels are a local returned in the example's dict
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def tokenize(example):
        before = tokenizer(example["prompt"])["input_ids"]
        after = tokenizer(example["reply"] + tokenizer.eos_token, add_special_tokens=False)["input_ids"]
        ids = (before + after)[:256]
        labels = ([-100] * len(before) + after)[:256]
        return {"input_ids": ids, "attention_mask": [1] * len(ids), "labels": labels}


    data = raw.map(tokenize, remove_columns=["prompt", "reply"])
    trainer = Trainer(
        model=model,
        train_dataset=data,
        args=TrainingArguments(output_dir="lora"),
        data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),  # warning: PF465
    )
    trainer.train()
"""),
    # hunt46: the prompt masked per example in dataset.map, then the LM collator
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer


    def mask_prompt(feature):
        # the same masking done per example in dataset.map: the LM collator rebuilds these labels
        ids = feature["input_ids"]
        seq_len = feature["seq_len"]
        feature["labels"] = [-100] * (seq_len - 1) + ids[(seq_len - 1):]
        return feature


    def train(args, model, tokenizer, train_dataset):
        train_dataset = train_dataset.map(mask_prompt)
        data_collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)  # warning: PF465
        Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=data_collator).train()
    """),
]

GOOD_EXAMPLES = [
    # the fix: a collator that pads the labels built item by item
    _ITEMWISE.format(test='i < prompt_len or full["attention_mask"][i] == 0',
                     collator="transformers.DataCollatorForSeq2Seq(tokenizer, padding=True))"),
    # tricky-correct: only padding masked item by item, which the collator does itself
    _ITEMWISE.format(test='full["attention_mask"][i] == 0',
                     collator="transformers.DataCollatorForLanguageModeling(tokenizer, mlm=False))"),
    # the fix (alpaca-lora): a collator that pads the labels the script built
    _DATA.replace("{collator}", "transformers.DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8, "
                                "return_tensors=\"pt\", padding=True)"),
    # tricky-correct: plain causal-LM pretraining, labels never built by hand
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling, Trainer, TrainingArguments


    def pretrain(model, tokenizer, dataset):
        tokenized = dataset.map(lambda ex: tokenizer(ex["text"], truncation=True, max_length=512), batched=True)
        collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
        Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=tokenized,
                data_collator=collator).train()
"""),
    # tricky-correct: padding masked in place, which the collator does itself (TRL's iterative trainer)
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling


    class Trainer:
        def __init__(self, tokenizer):
            self.tokenizer = tokenizer
            self.data_collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)

        def prepare(self, input_ids, attention_mask):
            input_data = {"input_ids": input_ids, "attention_mask": attention_mask, "labels": input_ids.clone()}
            input_data["labels"][input_data["labels"] == self.tokenizer.pad_token_id] = -100
            return input_data
"""),
    # tricky-correct: a -100 list built for another purpose (a padded label list for a classifier head
    # whose own collator pads it), not handed on as the LM example's labels
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling


    def tokenize(example):
        tags = [-100] * len(example["tokens"])
        out = tokenizer(example["text"], truncation=True)
        out["tag_ids"] = tags
        return out


    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
"""),
    # tricky-correct (peft's QALoRA example): only the pad tokens become -100, as the collator does itself
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling


    def tokenize(examples):
        out = tokenizer(examples["text"], truncation=True, padding="max_length", max_length=512)
        labels = out["input_ids"].copy()
        labels = [[-100 if token == tokenizer.pad_token_id else token for token in seq] for seq in labels]
        out["labels"] = labels
        return out


    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
"""),
    # hunt46, LLM-Tuning *_lora_tuning.py: the masking lives in the other collator the script may pick
    textwrap.dedent("""
    import torch
    from transformers import DataCollatorForLanguageModeling, Trainer


    def my_data_collator(features, tokenizer):
        # LLM-Tuning llama2_lora_tuning.py (shape): this collator masks the prompt itself; the LM collator
        # is the other choice (prompt tokens in the loss), never applied to these labels
        longest = max(len(f["input_ids"]) for f in features)
        input_ids, labels_list = [], []
        for feature in features:
            ids = feature["input_ids"]
            seq_len = feature["seq_len"]
            labels = [-100] * (seq_len - 1) + ids[(seq_len - 1):] + [-100] * (longest - len(ids))
            input_ids.append(torch.LongTensor(ids + [tokenizer.pad_token_id] * (longest - len(ids))))
            labels_list.append(torch.LongTensor(labels))
        labels = torch.stack(labels_list)
        return {"input_ids": torch.stack(input_ids), "labels": labels}


    def train(args, model, tokenizer, train_dataset):
        if args.no_prompt_loss:
            data_collator = my_data_collator
        else:
            data_collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)
        Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=data_collator).train()
    """),
]
