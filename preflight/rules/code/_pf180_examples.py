"""PF180 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CLASSIFIER = textwrap.dedent("""
    import numpy as np
    import evaluate
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    accuracy = evaluate.load("accuracy")
    precision = evaluate.load("precision")
    {extra_metric}

    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        preds = np.argmax(logits, axis=-1)
        out = accuracy.compute(predictions=preds, references=labels)
        out.update(precision.compute(predictions=preds, references=labels, average="macro"))
        {extra_update}
        return out


    def main():
        model = AutoModelForSequenceClassification.from_pretrained("roberta-large", num_labels=2)
        args = TrainingArguments(
            output_dir="out",
            eval_strategy="epoch",
            save_strategy="epoch",
            load_best_model_at_end=True,
            metric_for_best_model="{metric}",{mark}
            greater_is_better=True,
        )
        trainer = Trainer(model=model, args=args, train_dataset=ds["train"], eval_dataset=ds["validation"],
                          compute_metrics=compute_metrics)
        trainer.train()
""")

_LITERAL = textwrap.dedent("""
    from sklearn.metrics import accuracy_score, f1_score
    from transformers import Trainer, TrainingArguments


    def compute_metrics(pred):
        labels = pred.label_ids
        preds = pred.predictions.argmax(-1)
        if labels is None:
            return {{}}
        return {{"accuracy": accuracy_score(labels, preds), {key}: f1_score(labels, preds, average="weighted")}}


    trainer = Trainer(
        model=model,
        args=TrainingArguments("out", evaluation_strategy="steps", eval_steps=500,
                               metric_for_best_model="{metric}"),{mark}
        train_dataset=train_ds,
        eval_dataset={eval_ds},
        compute_metrics=compute_metrics,
    )
""")

_NO_METRICS = textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments("out", eval_strategy="steps", eval_steps=200, save_steps=200,
                             load_best_model_at_end=True, metric_for_best_model="{metric}"){mark}
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=val).train()
""")

PF180_BAD = [
    # transformers issue 40217: eval_f1 monitored, only accuracy and precision returned
    _CLASSIFIER.format(extra_metric="", extra_update="", metric="eval_f1", mark="  # error: PF180"),
    # a literal dict with a differently spelled key; the name without its eval_ prefix
    _LITERAL.format(key='"f1_weighted"', metric="f1", mark="  # error: PF180", eval_ds="val_ds"),
    # no compute_metrics at all: the evaluation metrics hold only eval_loss and the timings
    _NO_METRICS.format(metric="accuracy", mark="  # error: PF180"),
    # LlamaFactory issue 7906: a dict of named eval datasets prefixes every metric with the set's name,
    # so eval_loss is not there (eval_custom_alpaca_loss is)
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments("out", eval_strategy="steps", eval_steps=500, save_steps=500,
                             load_best_model_at_end=True,
                             metric_for_best_model="eval_loss",  # error: PF180
                             greater_is_better=False)
    Trainer(model=model, args=args, train_dataset=feats["train"],
            eval_dataset={"custom_alpaca": feats["eval"]}).train()
    """),
]

PF180_GOOD = [
    # the fix: f1 returned as well
    _CLASSIFIER.format(extra_metric='f1 = evaluate.load("f1")',
                       extra_update='out.update(f1.compute(predictions=preds, references=labels, average="macro"))',
                       metric="eval_f1", mark=""),
    # tricky-correct: the returned key named without the eval_ prefix the Trainer adds
    _CLASSIFIER.format(extra_metric="", extra_update="", metric="eval_precision", mark=""),
    # tricky-correct: a key the Trainer adds itself
    _CLASSIFIER.format(extra_metric="", extra_update="", metric="loss", mark=""),
    # tricky-correct: a dict of eval datasets prefixes each key with the dataset's name
    _LITERAL.format(key='"f1"', metric="eval_squad_f1", mark="", eval_ds='{"squad": squad, "quac": quac}'),
    # tricky-correct: the fix of LlamaFactory issue 7906 (the prefixed loss, written without eval_), and a dict
    # whose keys preflight cannot read
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments("out", eval_strategy="steps", eval_steps=500, save_steps=500,
                             load_best_model_at_end=True, metric_for_best_model="custom_alpaca_loss",
                             greater_is_better=False)
    Trainer(model=model, args=args, train_dataset=feats["train"],
            eval_dataset={"custom_alpaca": feats["eval"]}).train()
    Trainer(model=model, args=args, train_dataset=feats["train"], eval_dataset={NAME: feats["eval"]}).train()
    """),
    # tricky-correct: a computed key preflight cannot read
    _LITERAL.format(key='f"f1_{AVERAGE}"', metric="f1_weighted", mark="", eval_ds="val_ds"),
    # tricky-correct: the dict is handed to a helper that may add keys
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    def compute_metrics(p):
        out = {"accuracy": (p.predictions.argmax(-1) == p.label_ids).mean()}
        add_f1(out, p)
        return out


    args = TrainingArguments("out", eval_strategy="epoch", save_strategy="epoch", load_best_model_at_end=True,
                             metric_for_best_model="f1")
    Trainer(model=model, args=args, eval_dataset=val, compute_metrics=compute_metrics).train()
    """),
    # tricky-correct: no evaluation while training, so the best metric is never looked up
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    def compute_metrics(p):
        return {"accuracy": (p.predictions.argmax(-1) == p.label_ids).mean()}


    args = TrainingArguments("out", metric_for_best_model="f1")
    Trainer(model=model, args=args, eval_dataset=val, compute_metrics=compute_metrics).train()
    """),
    # tricky-correct: no compute_metrics, the best model chosen on the loss the Trainer computes itself
    _NO_METRICS.format(metric="eval_loss", mark=""),
]
