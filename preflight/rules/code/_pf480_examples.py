"""PF480 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    from datasets import Dataset
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


    def train_bert(texts, labels, label_names, model_name="camembert-base"):
        num_labels = len(label_names)
        label2id = {{name: i for i, name in enumerate(label_names)}}
        tokenizer = AutoTokenizer.from_pretrained(model_name)

        def encode(example):
            enc = tokenizer(example["text"], truncation=True, max_length=512, padding="max_length")
    {labels}
            return enc

        ds = Dataset.from_dict({{"text": texts, "label": labels}}).map(encode, remove_columns=["text", "label"])
        model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=num_labels{extra})
        args = TrainingArguments(output_dir="models/bert", learning_rate=5e-5, num_train_epochs=3)
        Trainer(model=model, args=args, train_dataset=ds).train()
""")
_ONE_HOT = '        enc["labels"] = [1.0 if label2id[example["label"]] == i else 0.0 for i in range(num_labels)]'

BAD_EXAMPLES = [
    # activetigger issue 1030
    _TEMPLATE.format(labels=_ONE_HOT + "  # warning: PF480", extra=""),
    # torch's one_hot cast to float
    _TEMPLATE.format(labels='        enc["labels"] = F.one_hot(torch.tensor(label2id[example["label"]]), num_labels).float()'
                            "  # warning: PF480", extra="").replace(
        "from datasets import Dataset\n", "import torch\nimport torch.nn.functional as F\nfrom datasets import Dataset\n"),
]

GOOD_EXAMPLES = [
    # the fix: the class index
    _TEMPLATE.format(labels='        enc["labels"] = label2id[example["label"]]', extra=""),
    # tricky: a multi-hot vector of a multi-label task, where BCE is meant
    _TEMPLATE.format(labels='        enc["labels"] = [1.0 if name in example["label"] else 0.0 for name in label_names]',
                     extra=""),
    # tricky: a multi-hot vector compared for equality per class (a multi-label emotion task)
    _TEMPLATE.format(labels='        enc["labels"] = [1.0 if example["output"][k] == "True" else 0.0 for k in label_names]',
                     extra=""),
    # the problem type spelled out
    _TEMPLATE.format(labels=_ONE_HOT, extra=', problem_type="multi_label_classification"'),
]
