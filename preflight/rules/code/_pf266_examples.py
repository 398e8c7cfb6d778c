"""PF266 examples: a dataset tokenized by ``map`` that keeps its text columns, fed to a padding collator
in a hand-written DataLoader (bad: the pinned line; good: silent)."""

from __future__ import annotations

from textwrap import dedent

# the summarization course notebook run with a custom loop (transformers issue 15505's shape)
_SEQ2SEQ = dedent("""\
    from datasets import load_dataset
    from torch.utils.data import DataLoader
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq

    tokenizer = AutoTokenizer.from_pretrained("google/mt5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("google/mt5-small")
    raw = load_dataset("amazon_reviews_multi", "en")


    def preprocess(examples):
        model_inputs = tokenizer(examples["review_body"], max_length=512, truncation=True)
        labels = tokenizer(text_target=examples["review_title"], max_length=30, truncation=True)
        model_inputs["labels"] = labels["input_ids"]
        return model_inputs


    {map_line}
    {after}
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)
    train_loader = DataLoader(tokenized["train"], shuffle=True, collate_fn=collator, batch_size=8)
    for batch in train_loader:
        loss = model(**batch).loss
        loss.backward()
    """)

# a classifier: a lambda tokenizes the text, the collator is built inline
_CLASSIFIER = dedent("""\
    from datasets import load_dataset
    from torch.utils.data import DataLoader
    from transformers import AutoTokenizer, DataCollatorWithPadding

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    ds = load_dataset("imdb")
    ds = ds.map(lambda b: tokenizer(b["text"], truncation=True), batched=True){mark}
    loader = DataLoader(ds["train"], batch_size=16, shuffle=True, collate_fn={collate})
    """)

PF266_BAD = [
    _SEQ2SEQ.format(map_line="tokenized = raw.map(preprocess, batched=True)  # warning: PF266", after=""),
    # tricky bad: the torch format without `columns` leaves the text columns as strings
    _SEQ2SEQ.format(map_line="tokenized = raw.map(preprocess, batched=True)  # warning: PF266",
                    after='tokenized.set_format("torch")'),
    _CLASSIFIER.format(mark="  # warning: PF266", collate="DataCollatorWithPadding(tokenizer)"),
]

PF266_GOOD = [
    # the fix: the original columns removed by map
    _SEQ2SEQ.format(map_line='tokenized = raw.map(preprocess, batched=True, remove_columns=raw["train"].column_names)',
                    after=""),
    # tricky: removed afterwards, before the loaders
    _SEQ2SEQ.format(map_line="tokenized = raw.map(preprocess, batched=True)",
                    after='tokenized = tokenized.remove_columns(["review_body", "review_title"])'),
    # tricky: only the model's columns are kept as tensors
    _SEQ2SEQ.format(map_line="tokenized = raw.map(preprocess, batched=True)",
                    after='tokenized.set_format("torch", columns=["input_ids", "attention_mask", "labels"])'),
    # tricky: default_data_collator skips string values
    _CLASSIFIER.format(mark="", collate="default_data_collator").replace(
        "DataCollatorWithPadding", "default_data_collator"),
    # tricky: the function writes the tokenized ids back under the text column's name
    _CLASSIFIER.format(mark="", collate="DataCollatorWithPadding(tokenizer)").replace(
        'lambda b: tokenizer(b["text"], truncation=True)', "encode_text").replace(
        'ds = load_dataset("imdb")', dedent('''\
            ds = load_dataset("imdb")


            def encode_text(b):
                b["text"] = tokenizer(b["text"], truncation=True)["input_ids"]
                return b

            ''')),
]
