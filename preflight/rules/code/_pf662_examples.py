"""PF662 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF662_BAD = [
    # transformers issue 26830: run_classification.py's multi-label branch
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoConfig, EvalPrediction, Trainer

    config = AutoConfig.from_pretrained("bert-base-uncased", num_labels=9, problem_type="multi_label_classification")


    def compute_metrics(p: EvalPrediction):
        preds = p.predictions[0] if isinstance(p.predictions, tuple) else p.predictions
        preds = np.array([np.where(x > 0.5, 1, 0) for x in preds])  # warning: PF662
        return metric.compute(predictions=preds, references=p.label_ids, average="micro")
    """),
    # the unpacked evaluation tuple, under another function name
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer

    model = AutoModelForSequenceClassification.from_pretrained(
        "roberta-base", num_labels=28, problem_type="multi_label_classification")


    def multi_label_metrics(eval_pred):
        logits, labels = eval_pred
        y_pred = (logits >= 0.5).astype(int)  # warning: PF662
        return {"f1": f1_score(labels, y_pred, average="micro")}


    trainer = Trainer(model=model, compute_metrics=multi_label_metrics)
    """),
]

PF662_GOOD = [
    # the sigmoid first (the tutorial's recipe)
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, Trainer

    model = AutoModelForSequenceClassification.from_pretrained(
        "roberta-base", num_labels=28, problem_type="multi_label_classification")


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        probs = torch.sigmoid(torch.tensor(logits))
        y_pred = (probs >= 0.5).int().numpy()
        return {"f1": f1_score(labels, y_pred, average="micro")}
    """),
    # PR 26936's fix: the logits thresholded at 0
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained("bert-base-uncased", problem_type="multi_label_classification")


    def compute_metrics(p):
        preds = np.array([np.where(x > 0, 1, 0) for x in p.predictions])
        return metric.compute(predictions=preds, references=p.label_ids, average="micro")
    """),
    # tricky-correct: the labels (0/1 floats) compared with 0.5, the predictions thresholded at 0
    textwrap.dedent("""
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained("bert-base-uncased", problem_type="multi_label_classification")


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        truth = labels > 0.5
        return {"acc": ((logits > 0) == truth).mean()}
    """),
    # tricky-correct: probabilities made by preprocess_logits_for_metrics before compute_metrics
    textwrap.dedent("""
    import torch
    from transformers import AutoConfig, Trainer

    config = AutoConfig.from_pretrained("bert-base-uncased", problem_type="multi_label_classification")


    def to_probs(logits, labels):
        return torch.sigmoid(logits)


    def compute_metrics(eval_pred):
        probs, labels = eval_pred
        return {"acc": ((probs > 0.5) == labels).mean()}


    trainer = Trainer(model=model, compute_metrics=compute_metrics, preprocess_logits_for_metrics=to_probs)
    """),
]
