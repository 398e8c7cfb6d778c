"""PF184 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # a pretraining warmup copied into a short fine-tune
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(
        output_dir="out",
        max_steps=200,
        warmup_steps=500,  # warning: PF184
        learning_rate=2e-4,
        lr_scheduler_type="cosine",
    )
    Trainer(model=model, args=args).train()
    """),
    # the launch line of an HfArgumentParser script: the warmup as long as the run
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()  # warning: PF184
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
    # --- launch
    python train.py --output_dir out --max_steps 1000 --warmup_steps 1000 --learning_rate 1e-4
    """),
]

GOOD_EXAMPLES = [
    # the fix: a warmup that is a small share of the run
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", max_steps=200, warmup_steps=20, lr_scheduler_type="cosine")
    Trainer(model=model, args=args).train()
    """),
    # tricky: max_steps=-1 (the default, epochs decide the length) with a long warmup
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", max_steps=-1, num_train_epochs=3, warmup_steps=2000)
    Trainer(model=model, args=args).train()
    """),
    # tricky: transformers 5 reads a warmup_steps below 1 as a ratio of the run
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", max_steps=100, warmup_steps=0.1)
    Trainer(model=model, args=args).train()
    """),
    # tricky: the job passes its own optimizer and scheduler, the Trainer builds none
    textwrap.dedent("""
    # --- train.py
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 10))
    args = TrainingArguments(output_dir="out", max_steps=100, warmup_steps=100)
    Trainer(model=model, args=args, optimizers=(opt, sched)).train()
    """),
]
