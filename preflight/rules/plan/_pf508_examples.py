"""PF508 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF508_BAD = [
    # held-out-14 (text-generation-webui issue 3427's shape): eval_steps derived as ceil(100 / 8) = 13
    textwrap.dedent("""
    # --- train.py
    import math

    from transformers import TrainingArguments

    grad_accum = 32 // 4
    args = TrainingArguments(output_dir="out", gradient_accumulation_steps=grad_accum, eval_strategy="steps",
                             eval_steps=math.ceil(100 / grad_accum), save_strategy="steps",
                             save_steps=500,  # error: PF508
                             load_best_model_at_end=True)
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="no", save_strategy="epoch", load_best_model_at_end=True)  # error: PF508
"""),
    textwrap.dedent("""
    # --- train.py
    import yaml
    from transformers import TrainingArguments

    args = TrainingArguments(**yaml.safe_load(open("args.yaml")))
    # --- args.yaml
    output_dir: out
    eval_strategy: steps
    save_strategy: steps
    eval_steps: 30
    save_steps: 100  # error: PF508
    load_best_model_at_end: true
"""),
    # the TrainingArguments come from the launch line, which leaves the evaluation strategy out ("no")
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)  # error: PF508
    Trainer(model=model, args=training_args, train_dataset=ds, eval_dataset=ev).train()
    # --- launch
    python train.py --do_train --output_dir out --load_best_model_at_end True --save_steps 2000
"""),
    # held-out-4 (the values come from the launch line through conditional expressions and `or`)
    textwrap.dedent("""
    # --- train.py
    import argparse

    from transformers import Trainer, TrainingArguments

    parser = argparse.ArgumentParser()
    parser.add_argument("--eval_steps", type=int, default=None)
    parser.add_argument("--save_steps", type=int, default=None)
    cli_args = parser.parse_args()
    args = TrainingArguments(
        output_dir="out",
        load_best_model_at_end=True,
        save_strategy="steps" if cli_args.save_steps is not None else "epoch",
        save_steps=cli_args.save_steps or 500,  # error: PF508
        eval_strategy="steps" if cli_args.eval_steps is not None else "epoch",
        eval_steps=cli_args.eval_steps,
    )
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
    # --- launch
    python train.py --eval_steps 300 --save_steps 500
"""),
]

PF508_GOOD = [
    # the fix: save_steps derived as a multiple of the rounded eval_steps (13 * 38 = 494)
    textwrap.dedent("""
    # --- train.py
    import math

    from transformers import TrainingArguments

    grad_accum = 32 // 4
    eval_steps = math.ceil(100 / grad_accum)
    args = TrainingArguments(output_dir="out", gradient_accumulation_steps=grad_accum, eval_strategy="steps",
                             eval_steps=eval_steps, save_strategy="steps", save_steps=eval_steps * (500 // eval_steps),
                             load_best_model_at_end=True)
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="epoch", save_strategy="epoch", load_best_model_at_end=True)
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50, save_steps=100,
                             load_best_model_at_end=True)
"""),
    # the launch line gives both strategies
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)
    Trainer(model=model, args=training_args, train_dataset=ds, eval_dataset=ev).train()
    # --- launch
    python train.py --output_dir out --load_best_model_at_end True --eval_strategy steps --eval_steps 500 --save_steps 1000
"""),
    # the fix: 600 is a multiple of 300
    textwrap.dedent("""
    # --- train.py
    import argparse

    from transformers import Trainer, TrainingArguments

    parser = argparse.ArgumentParser()
    parser.add_argument("--eval_steps", type=int, default=None)
    parser.add_argument("--save_steps", type=int, default=None)
    cli_args = parser.parse_args()
    args = TrainingArguments(
        output_dir="out",
        load_best_model_at_end=True,
        save_strategy="steps" if cli_args.save_steps is not None else "epoch",
        save_steps=cli_args.save_steps or 500,
        eval_strategy="steps" if cli_args.eval_steps is not None else "epoch",
        eval_steps=cli_args.eval_steps,
    )
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
    # --- launch
    python train.py --eval_steps 300 --save_steps 600
"""),
]
