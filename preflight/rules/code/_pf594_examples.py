"""PF594 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF594_BAD = [
    # ageron/handson-mlp#36 shape: a classifier loaded in float16, a Trainer without mixed precision
    textwrap.dedent("""
    import torch
    from transformers import BertForSequenceClassification, Trainer, TrainingArguments

    model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2,
                                                          dtype=torch.float16)  # warning: PF594
    args = TrainingArguments(output_dir="out", num_train_epochs=2, per_device_train_batch_size=64)
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=test).train()
"""),
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype="float16")  # warning: PF594
    Trainer(model=model, args=TrainingArguments(output_dir="out", learning_rate=5e-5), train_dataset=ds).train()
"""),
]

PF594_GOOD = [
    # the fix: float32 weights, fp16 mixed precision
    textwrap.dedent("""
    from transformers import BertForSequenceClassification, Trainer, TrainingArguments

    model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    args = TrainingArguments(output_dir="out", num_train_epochs=2, per_device_train_batch_size=64, fp16=True)
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=test).train()
"""),
    # tricky-correct: a float16 base that only carries LoRA adapters (created in float32)
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m", torch_dtype=torch.float16)
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=ds).train()
"""),
    # tricky-correct: float16 only for a frozen teacher whose logits a float32 student learns from
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    teacher = AutoModelForSequenceClassification.from_pretrained("bert-large-uncased", torch_dtype=torch.float16)
    teacher.requires_grad_(False)
    student = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased")
    Trainer(model=student, args=TrainingArguments(output_dir="out"), train_dataset=ds).train()
"""),
]
