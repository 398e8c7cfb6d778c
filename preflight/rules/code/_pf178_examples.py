"""PF178 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # transformers issue 35070: evaluate and save every step to keep the most accurate checkpoint
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="deberta-claims",
        num_train_epochs=5,
        eval_strategy="steps",
        eval_steps=1,
        save_strategy="steps",
        save_steps=1,  # warning: PF178
        save_total_limit=1,
        load_best_model_at_end=True,
    )
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=val).train()
"""),
    # the default step strategy, a TRL config and a real step budget
    textwrap.dedent("""
    from trl import SFTConfig, SFTTrainer

    config = SFTConfig(output_dir="out", max_steps=20000, save_steps=1, logging_steps=10)  # warning: PF178
    SFTTrainer(model=model, args=config, train_dataset=data).train()
"""),
]

GOOD_EXAMPLES = [
    # the fix: a sensible interval
    textwrap.dedent("""
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", num_train_epochs=5, eval_strategy="steps", eval_steps=500,
                             save_steps=500, save_total_limit=1, load_best_model_at_end=True)
"""),
    # tricky-correct: save_steps=1 under the epoch strategy (ignored), a two-step smoke test, a variable
    # step budget, a fraction of the run
    textwrap.dedent("""
    from transformers import Seq2SeqTrainingArguments, TrainingArguments

    a = TrainingArguments(output_dir="r", eval_strategy="epoch", save_strategy="epoch", save_steps=1,
                          num_train_epochs=5, load_best_model_at_end=True)
    b = TrainingArguments(output_dir="smoke", max_steps=2, save_steps=1, save_total_limit=2)
    c = Seq2SeqTrainingArguments(output_dir="c", max_steps=max_steps, save_steps=1, eval_steps=1)
    d = TrainingArguments(output_dir="d", num_train_epochs=3, save_steps=0.1)
    e = TrainingArguments(output_dir="e", save_strategy=strategy, save_steps=1)
"""),
]
