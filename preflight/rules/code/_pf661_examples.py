"""PF661 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF661_BAD = [
    # transformers issue 10908: the class names given as label_names
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    classes = ["negativ", "neutral", "positiv"]
    model = AutoModelForSequenceClassification.from_pretrained(
        "KB/bert-base-swedish-cased", num_labels=len(classes), id2label=dict(enumerate(classes)))
    args = TrainingArguments(output_dir="out", evaluation_strategy="epoch",
                             label_names=classes)  # error: PF661
    Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds).train()
    """),
    # the classes bound through label2id only, inside a function
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    def main(labels):
        label2id = {name: i for i, name in enumerate(labels)}
        args = TrainingArguments(output_dir="out", label_names=labels)  # error: PF661
        return args, label2id
    """),
]

PF661_GOOD = [
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, TrainingArguments

    classes = ["negativ", "neutral", "positiv"]
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=len(classes))
    args = TrainingArguments(output_dir="out", label_names=["labels"])
    """),
    # tricky-correct: a question-answering job names its two label keys through a variable
    textwrap.dedent("""
    from transformers import AutoModelForQuestionAnswering, TrainingArguments

    label_keys = ["start_positions", "end_positions"]
    model = AutoModelForQuestionAnswering.from_pretrained("bert-base-cased")
    args = TrainingArguments(output_dir="out", label_names=label_keys)
    """),
]
