"""PF593 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_ARGS = textwrap.dedent("""
    # --- finetune.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out/imdb",
        max_steps=600,
        eval_strategy="steps",
        eval_steps=200,{save}
        load_best_model_at_end=True,
        metric_for_best_model="accuracy",
    )
    trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=val, compute_metrics=compute_metrics)
    trainer.train()
""")

PF593_BAD = [
    # transformers issue 27766's shape: a save period longer than the run
    _ARGS.format(save='\n    save_strategy="steps",\n    save_steps=1000,  # warning: PF593'),
    # the default save period (500) on a 300-step run
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", max_steps=300, eval_strategy="steps", eval_steps=100,  # warning: PF593
                             load_best_model_at_end=True)
"""),
]

PF593_GOOD = [
    # the fix: the save period divides the run
    _ARGS.format(save='\n    save_strategy="steps",\n    save_steps=200,'),
    # tricky-correct: a ratio of the total steps, and an epoch strategy
    _ARGS.format(save='\n    save_strategy="steps",\n    save_steps=0.25,'),
    _ARGS.replace('eval_strategy="steps"', 'eval_strategy="epoch"').format(save='\n    save_strategy="epoch",'),
    # tricky-correct: no max_steps, the run's length follows the dataset
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=1000, save_steps=5000,
                             load_best_model_at_end=True)
"""),
]
