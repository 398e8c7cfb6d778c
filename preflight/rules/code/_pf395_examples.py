"""PF395 examples: a token-classification job whose collator is DataCollatorWithPadding (bad: the pinned
line; good: silent)."""

from __future__ import annotations

from textwrap import dedent

# an NER fine-tune with labels aligned to the word pieces (transformers PR 8274's shape)
_NER = dedent("""\
    from datasets import load_dataset
    from transformers import AutoModelForTokenClassification, AutoTokenizer, Trainer, TrainingArguments
    from transformers import DataCollatorForTokenClassification, DataCollatorWithPadding

    raw = load_dataset("conll2003")
    tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")


    def align(examples):
        enc = tokenizer(examples["tokens"], truncation=True, is_split_into_words=True{padding})
        enc["labels"] = [[-100 if w is None else tags[w] for w in enc.word_ids(batch_index=i)]
                         for i, tags in enumerate(examples["ner_tags"])]
        return enc


    data = raw.map(align, batched=True, remove_columns=raw["train"].column_names)
    model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
    args = TrainingArguments(output_dir="ner", num_train_epochs=3)
    {collator}
    trainer = Trainer(model=model, args=args, train_dataset=data["train"], data_collator=collator)
    trainer.train()
    """)

# a hand-written loop over a DataLoader
_LOOP = dedent("""\
    import torch
    from torch.utils.data import DataLoader
    from transformers import BertForTokenClassification, BertTokenizerFast, DataCollatorWithPadding

    from tagging import load_pos_dataset

    tokenizer = BertTokenizerFast.from_pretrained("bert-base-cased")
    model = BertForTokenClassification.from_pretrained("bert-base-cased", num_labels=17)
    train = load_pos_dataset(tokenizer, "train")
    loader = DataLoader(train, batch_size=32, shuffle=True,
                        collate_fn={collate}
                        )
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    model.train()
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    """)

# sequence classification: one label per row
_CLS = dedent("""\
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding, Trainer

    tokenizer = AutoTokenizer.from_pretrained("roberta-base")
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
    trainer = Trainer(model=model, train_dataset=load_reviews(tokenizer),
                      data_collator=DataCollatorWithPadding(tokenizer))
    trainer.train()
    """)

PF395_BAD = [
    _NER.format(padding="", collator="collator = DataCollatorWithPadding(tokenizer)  # error: PF395"),
    _LOOP.format(collate="DataCollatorWithPadding(tokenizer),  # error: PF395"),
]

PF395_GOOD = [
    # the fix
    _NER.format(padding="", collator="collator = DataCollatorForTokenClassification(tokenizer)"),
    _LOOP.format(collate="DataCollatorForTokenClassification(tokenizer),").replace(
        "DataCollatorWithPadding", "DataCollatorForTokenClassification"),
    # tricky: every row is padded to one length by the tokenizer, labels included
    _NER.format(padding=', padding="max_length", max_length=128',
                collator="collator = DataCollatorWithPadding(tokenizer)"),
    # tricky: sequence classification, one label per row
    _CLS,
]
