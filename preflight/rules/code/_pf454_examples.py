"""PF454 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF454_BAD = [
    # transformers issue 19599: a collator that tokenizes the raw text column
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    class TokenizingCollator:
        def __init__(self, tokenizer):
            self.tokenizer = tokenizer

        def __call__(self, examples):
            batch = self.tokenizer([ex["text"] for ex in examples], padding=True, return_tensors="pt")
            batch["labels"] = torch.tensor([ex["label"] for ex in examples])
            return batch


    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16)  # warning: PF454
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset,
                      data_collator=TokenizingCollator(tokenizer))
"""),
    # a collate function passed by name
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def collate(features):
        prompts = [f["prompt"] for f in features]
        return tokenizer(prompts, padding=True, return_tensors="pt")


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=TrainingArguments("out"), data_collator=collate,  # warning: PF454
            train_dataset=ds).train()
"""),
]

PF454_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    class TokenizingCollator:
        def __init__(self, tokenizer):
            self.tokenizer = tokenizer

        def __call__(self, examples):
            batch = self.tokenizer([ex["text"] for ex in examples], padding=True, return_tensors="pt")
            batch["labels"] = torch.tensor([ex["label"] for ex in examples])
            return batch


    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, remove_unused_columns=False)
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset,
                      data_collator=TokenizingCollator(tokenizer))
"""),
    # a collator that pads model inputs only
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def collate(features):
        ids = [torch.tensor(f["input_ids"]) for f in features]
        labels = [torch.tensor(f["labels"]) for f in features]
        return {"input_ids": torch.nn.utils.rnn.pad_sequence(ids, batch_first=True),
                "labels": torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=-100)}


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=TrainingArguments("out"), data_collator=collate, train_dataset=ds).train()
"""),
    # a custom model whose forward is not known from here
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    def collate(features):
        return {"text": [f["text"] for f in features]}


    Trainer(model=MyModel(), args=TrainingArguments("out"), data_collator=collate, train_dataset=ds).train()
"""),
]
