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

# transformers issue 13597: t5-base evaluated without predict_with_generate keeps the full decoder logits
_SEQ2SEQ = textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def compute_metrics(pred):
        return {{"acc": float((np.argmax(pred.predictions[0], axis=-1) == pred.label_ids).mean())}}


    model = AutoModelForSeq2SeqLM.from_pretrained("t5-base")
    args = Seq2SeqTrainingArguments(output_dir="t5-en-hi", eval_strategy="steps", eval_steps=2000{extra})
    trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                             compute_metrics=compute_metrics{pin}
""")
PF486_BAD.append(_SEQ2SEQ.format(extra="", pin=")  # warning: PF486"))
PF486_GOOD += [
    # the fix: generated ids instead of logits
    _SEQ2SEQ.format(extra=", predict_with_generate=True,\n                                generation_max_length=128", pin=")"),
    # tricky-correct: the arguments come from the command line (predict_with_generate may be there)
    _SEQ2SEQ.format(extra="", pin=")").replace(
        'args = Seq2SeqTrainingArguments(output_dir="t5-en-hi", eval_strategy="steps", eval_steps=2000)',
        "args = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()[0]"),
]
