"""PF486 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF486_BAD = [
    # transformers#15466 shape: token accuracy from the argmax of a causal LM's logits
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def compute_metrics(eval_preds):
        logits, labels = eval_preds
        preds = np.argmax(logits, axis=-1)
        return {"accuracy": float((preds[:, :-1] == labels[:, 1:]).mean())}


    model = AutoModelForCausalLM.from_pretrained("gpt2-medium")
    trainer = Trainer(
        model=model,
        args=TrainingArguments("out", eval_strategy="steps"),
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        compute_metrics=compute_metrics,  # warning: PF486
    )
    trainer.train()
"""),
]

PF486_GOOD = [
    # the fix (run_clm.py): the logits are reduced per batch
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    model = AutoModelForCausalLM.from_pretrained("gpt2-medium")
    trainer = Trainer(model=model, args=TrainingArguments("out"), eval_dataset=eval_ds,
                      compute_metrics=compute_metrics, preprocess_logits_for_metrics=preprocess_logits_for_metrics)
"""),
    # tricky-correct: a classifier's logits are [batch, num_labels]; a seq2seq model generates ids
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer

    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    Trainer(model=model, eval_dataset=eval_ds, compute_metrics=compute_metrics).train()
"""),
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    args = Seq2SeqTrainingArguments("out", predict_with_generate=True)
    Seq2SeqTrainer(model=model, args=args, eval_dataset=eval_ds, compute_metrics=compute_metrics).train()
"""),
    # tricky-correct: compute_metrics=None
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, eval_dataset=eval_ds, compute_metrics=None).train()
"""),
]
