"""PF536 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF536_BAD = [
    # the callback with the default evaluation strategy ("no")
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", save_strategy="epoch", metric_for_best_model="eval_loss")
    trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev,
                      callbacks=[EarlyStoppingCallback(early_stopping_patience=2)])  # error: PF536
    trainer.train()
"""),
    # evaluation on, but no metric and no best model: the metric never defaults to "loss"
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=100, save_steps=100)
    trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev)
    trainer.add_callback(EarlyStoppingCallback(early_stopping_patience=3))  # error: PF536
    trainer.train()
"""),
    # axolotl issue 73's shape: a metric but load_best_model_at_end off, transformers pinned before 4.48
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", evaluation_strategy="steps", eval_steps=50, save_steps=50,
                             metric_for_best_model="eval_loss")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev,
            callbacks=[EarlyStoppingCallback(3)]).train()  # error: PF536
    # --- requirements.txt
    transformers==4.30.2
"""),
    # the TrainingArguments come from the launch line, which never turns evaluation on
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    stopper = EarlyStoppingCallback(early_stopping_patience=5)  # error: PF536
    Trainer(model=model, args=training_args, train_dataset=train, callbacks=[stopper]).train()
    # --- launch
    python train.py --output_dir out --metric_for_best_model eval_loss --save_steps 200
"""),
]

PF536_GOOD = [
    # the fix: evaluation, a metric and the best model on the evaluation schedule
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50, save_strategy="steps",
                             save_steps=50, load_best_model_at_end=True, metric_for_best_model="eval_loss")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev,
            callbacks=[EarlyStoppingCallback(3)]).train()
    # --- requirements.txt
    transformers==4.30.2
"""),
    # tricky-correct: load_best_model_at_end alone (the metric defaults to "loss")
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="epoch", save_strategy="epoch", load_best_model_at_end=True)
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev, callbacks=[EarlyStoppingCallback(2)]).train()
"""),
    # tricky-correct: a metric without load_best_model_at_end on transformers 4.48 and later only warns
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50, metric_for_best_model="eval_f1")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev, callbacks=[EarlyStoppingCallback(3)]).train()
    # --- requirements.txt
    transformers>=4.30
"""),
    # tricky-correct: the values come from a dict the rule cannot see
    textwrap.dedent("""
    # --- train.py
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", **settings)
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev, callbacks=[EarlyStoppingCallback(3)]).train()
"""),
]
