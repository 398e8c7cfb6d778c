"""PF592 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF592_BAD = [
    # transformers issue 15898 shape: remote code with use_cache=True, the argmax on the raw outputs
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def metric_fns(metric):
        def preprocess_logits_for_metrics(logits, labels):
            return logits.argmax(dim=-1)  # error: PF592

        def compute_metrics(eval_preds):
            preds, labels = eval_preds
            return metric.compute(predictions=preds[:, :-1].reshape(-1), references=labels[:, 1:].reshape(-1))

        return preprocess_logits_for_metrics, compute_metrics


    def main(train_ds, eval_ds, metric):
        model = AutoModelForCausalLM.from_pretrained("acme/clm-1b", use_cache=True, trust_remote_code=True)
        preprocess, compute = metric_fns(metric)
        trainer = Trainer(model=model, args=TrainingArguments(output_dir="out", eval_strategy="epoch"),
                          train_dataset=train_ds, eval_dataset=eval_ds, compute_metrics=compute,
                          preprocess_logits_for_metrics=preprocess)
        trainer.train()
"""),
    # a T5 evaluated by its logits: encoder_last_hidden_state comes along
    textwrap.dedent("""
    import torch
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments, T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-base")


    def keep_argmax(logits, labels):
        return torch.argmax(logits, dim=-1)  # error: PF592


    trainer = Seq2SeqTrainer(model=model, args=Seq2SeqTrainingArguments(output_dir="out"), train_dataset=train,
                             eval_dataset=val, preprocess_logits_for_metrics=keep_argmax)
"""),
]

PF592_GOOD = [
    # the fix (run_clm.py today): the first element when a tuple comes
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def preprocess_logits_for_metrics(logits, labels):
        if isinstance(logits, tuple):
            logits = logits[0]
        return logits.argmax(dim=-1)


    model = AutoModelForCausalLM.from_pretrained("acme/clm-1b", use_cache=True, trust_remote_code=True)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
"""),
    # tricky-correct: a decoder-only transformers model (past_key_values is ignored at inference)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
"""),
    # tricky-correct: hidden states requested, and the function takes the logits out of the tuple
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", output_hidden_states=True)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train, eval_dataset=val,
                      preprocess_logits_for_metrics=lambda outputs, labels: outputs[0].argmax(-1))
"""),
]
