"""PF496 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF496_BAD = [
    # KcBERT#3 shape: five comment classes on the default two-label head
    textwrap.dedent("""
    from transformers import BertForSequenceClassification, Trainer, TrainingArguments

    LABELS = [0, 1, 2, 3, 4]
    model = BertForSequenceClassification.from_pretrained("beomi/kcbert-large")  # error: PF496
    args = TrainingArguments(output_dir="kcbert-5class", num_train_epochs=20)
    Trainer(model=model, args=args, train_dataset=train_set).train()
"""),
]

PF496_GOOD = [
    # the fix
    textwrap.dedent("""
    from transformers import BertForSequenceClassification, Trainer, TrainingArguments

    LABELS = [0, 1, 2, 3, 4]
    model = BertForSequenceClassification.from_pretrained("beomi/kcbert-large", num_labels=len(LABELS))
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=train_set).train()
"""),
    # tricky-correct: a fine-tuned three-class checkpoint keeps its own head; two labels on a base model
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer

    LABELS = ["negative", "neutral", "positive"]
    model = AutoModelForSequenceClassification.from_pretrained("cardiffnlp/twitter-roberta-base-sentiment")
    Trainer(model=model, train_dataset=ds).train()
"""),
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer

    LABELS = ["neg", "pos"]
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base")
    Trainer(model=model, train_dataset=ds).train()
"""),
]
