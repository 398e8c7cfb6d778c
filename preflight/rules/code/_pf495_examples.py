"""PF495 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF495_BAD = [
    # transformers#7198 shape: continuing an interrupted GPT-2 fine-tune from its checkpoint's weights
    textwrap.dedent("""
    from transformers import GPT2LMHeadModel, Trainer, TrainingArguments

    model = GPT2LMHeadModel.from_pretrained("results/checkpoint-9500")
    training_args = TrainingArguments(output_dir="./results", num_train_epochs=4, warmup_steps=500, save_steps=500)
    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
    trainer.train()  # warning: PF495
"""),
]

PF495_GOOD = [
    # the fix
    textwrap.dedent("""
    from transformers import GPT2LMHeadModel, Trainer, TrainingArguments

    model = GPT2LMHeadModel.from_pretrained("gpt2-large")
    training_args = TrainingArguments(output_dir="./results", num_train_epochs=4)
    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
    trainer.train(resume_from_checkpoint="results/checkpoint-9500")
"""),
    # tricky-correct: a second stage starts from the first stage's checkpoint, in a new output_dir
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("stage1/checkpoint-2000")
    args = TrainingArguments(output_dir="stage2", num_train_epochs=1)
    Trainer(model=model, args=args, train_dataset=sft_dataset).train()
"""),
]
