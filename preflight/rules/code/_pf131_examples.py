"""PF131 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF131_BAD = [
    # trl issue 862: ROUGE of the decoded teacher-forced argmax during SFT
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)  # warning: PF131


    def compute_metrics(eval_pred):
        preds, labels = eval_pred
        decoded_preds = tokenizer.batch_decode(preds, skip_special_tokens=True)
        labels = np.where(labels != -100, labels, tokenizer.pad_token_id)
        decoded_labels = tokenizer.batch_decode(labels, skip_special_tokens=True)
        return rouge.compute(predictions=decoded_preds, references=decoded_labels)


    trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=SFTConfig(output_dir="out", eval_strategy="epoch"),
                         train_dataset=train, eval_dataset=test, processing_class=tokenizer,
                         compute_metrics=compute_metrics,
                         preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
    # token accuracy of a causal LM under the plain Trainer
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")


    def compute_metrics(eval_pred):
        preds, labels = eval_pred
        mask = labels != -100
        return {"accuracy": float((preds[mask] == labels[mask]).mean())}


    trainer = Trainer(model=model, args=TrainingArguments("out", eval_strategy="steps"), train_dataset=train,
                      eval_dataset=test, compute_metrics=compute_metrics,
                      preprocess_logits_for_metrics=lambda logits, labels: torch.argmax(logits, dim=-1))  # warning: PF131
    trainer.train()
"""),
]

PF131_GOOD = [
    # the fix of trl issue 862: predictions and labels shifted against each other
    textwrap.dedent("""
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    def compute_metrics(eval_pred):
        preds, labels = eval_pred
        preds, labels = preds[:, :-1], labels[:, 1:]
        mask = labels != -100
        decoded_preds = [tokenizer.decode(p[m], skip_special_tokens=True) for p, m in zip(preds, mask)]
        decoded_labels = [tokenizer.decode(l[m], skip_special_tokens=True) for l, m in zip(labels, mask)]
        return rouge.compute(predictions=decoded_preds, references=decoded_labels)


    trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=SFTConfig(output_dir="out", eval_strategy="epoch"),
                         train_dataset=train, eval_dataset=test, processing_class=tokenizer,
                         compute_metrics=compute_metrics,
                         preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
    # transformers' run_clm.py: the shift happens in compute_metrics after reshaping
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")


    def preprocess_logits_for_metrics(logits, labels):
        if isinstance(logits, tuple):
            logits = logits[0]
        return logits.argmax(dim=-1)


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        labels = labels[:, 1:].reshape(-1)
        preds = preds[:, :-1].reshape(-1)
        return metric.compute(predictions=preds, references=labels)


    trainer = Trainer(model=model, args=TrainingArguments("out", eval_strategy="steps"), train_dataset=train,
                      eval_dataset=test, compute_metrics=compute_metrics,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
    # tricky: the shift is done on the logits before the argmax
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")


    def preprocess_logits_for_metrics(logits, labels):
        return logits[:, :-1].argmax(dim=-1)


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        mask = labels[:, 1:] != -100
        return {"accuracy": float((preds[mask] == labels[:, 1:][mask]).mean())}


    trainer = Trainer(model=model, args=TrainingArguments("out", eval_strategy="steps"), train_dataset=train,
                      eval_dataset=test, compute_metrics=compute_metrics,
                      preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
    # tricky: token classification argmaxes per position, aligned with its labels
    textwrap.dedent("""
    from transformers import AutoModelForTokenClassification, Trainer, TrainingArguments

    model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    def compute_metrics(eval_pred):
        preds, labels = eval_pred
        mask = labels != -100
        return {"accuracy": float((preds[mask] == labels[mask]).mean())}


    trainer = Trainer(model=model, args=TrainingArguments("out"), train_dataset=train, eval_dataset=test,
                      compute_metrics=compute_metrics, preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
    # tricky: the positions are picked by index arithmetic, one before each answer token
    textwrap.dedent("""
    import numpy as np
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1.4b-deduped")


    def compute_metrics(eval_preds):
        preds, labels = eval_preds
        rows, cols = np.where(labels != -100)
        return {"acc": float((preds[rows, cols - 1] == labels[rows, cols]).mean())}


    def preprocess_logits_for_metrics(logits, labels):
        return logits.argmax(dim=-1)


    trainer = Trainer(model=model, args=TrainingArguments("out"), train_dataset=train, eval_dataset=test,
                      compute_metrics=compute_metrics, preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    trainer.train()
"""),
]
