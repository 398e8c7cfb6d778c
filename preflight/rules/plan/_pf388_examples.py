"""PF388 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # unsloth issue 594-style notebook arguments: both set in one call
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(
        output_dir="out",
        num_train_epochs=3,
        warmup_steps=500,
        warmup_ratio=0.03,  # warning: PF388
        lr_scheduler_type="cosine",
    )
    Trainer(model=model, args=args).train()
    """),
    # the launch line adds a ratio to arguments that already fix the steps
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()  # warning: PF388
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
    # --- launch
    torchrun --nproc_per_node 2 train.py --output_dir out --warmup_steps 100 --warmup_ratio 0.1
    """),
]

GOOD_EXAMPLES = [
    # the fix: the ratio alone
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", num_train_epochs=3, warmup_ratio=0.03)
    Trainer(model=model, args=args).train()
    """),
    # tricky: warmup_steps=0 is the default "use the ratio" (PEFT's example scripts write both)
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
    # --- launch
    torchrun --nproc_per_node 2 train.py --output_dir out --warmup_steps 0 --warmup_ratio 0.03
    """),
    # tricky: a ratio of 0 next to a step count: nothing is lost
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", warmup_steps=100, warmup_ratio=0.0)
    Trainer(model=model, args=args).train()
    """),
    # tricky: transformers 5 reads a warmup_steps below 1 as a ratio
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", warmup_steps=0.05)
    Trainer(model=model, args=args).train()
    """),
]
