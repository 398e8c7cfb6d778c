"""PF183 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # a notebook's arguments: a constant rate "with" a warmup ratio
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(
        output_dir="out",
        learning_rate=2e-4,
        warmup_ratio=0.03,
        lr_scheduler_type="constant",  # warning: PF183
    )
    Trainer(model=model, args=args).train()
    """),
    # the QLoRA-style launch line of an HfArgumentParser script
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()  # warning: PF183
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
    # --- launch
    python train.py --output_dir out --lr_scheduler_type constant --warmup_ratio 0.03 --learning_rate 2e-4
    """),
    # an arguments YAML file with a warmup step count
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_yaml_file("args.yaml")
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    Trainer(model=model, args=args).train()
    # --- args.yaml
    output_dir: out
    learning_rate: 1.0e-5
    per_device_train_batch_size: 4
    lr_scheduler_type: constant  # warning: PF183
    warmup_steps: 100
    """),
]

GOOD_EXAMPLES = [
    # the fix: the warmup schedule by its own name
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", warmup_ratio=0.03, lr_scheduler_type="constant_with_warmup")
    Trainer(model=model, args=args).train()
    """),
    # tricky: constant with warmup_steps=0 / warmup_ratio=0.0 written out: no warmup asked for
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", lr_scheduler_type="constant", warmup_steps=0, warmup_ratio=0.0)
    Trainer(model=model, args=args).train()
    """),
    # tricky: the Trainer subclass builds its own warmup scheduler, lr_scheduler_type is never read
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments, get_constant_schedule_with_warmup

    class MyTrainer(Trainer):
        def create_scheduler(self, num_training_steps, optimizer=None):
            self.lr_scheduler = get_constant_schedule_with_warmup(
                optimizer or self.optimizer, self.args.get_warmup_steps(num_training_steps))
            return self.lr_scheduler

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", lr_scheduler_type="constant", warmup_ratio=0.03)
    MyTrainer(model=model, args=args).train()
    """),
    # tricky: cosine with a warmup ratio, and a constant schedule in another call with no warmup
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    args = TrainingArguments(output_dir="out", lr_scheduler_type="cosine", warmup_ratio=0.03)
    probe = TrainingArguments(output_dir="probe", lr_scheduler_type="constant", max_steps=10)
    Trainer(model=model, args=args).train()
    """),
]
