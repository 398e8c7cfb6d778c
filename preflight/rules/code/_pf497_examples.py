"""PF497 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF497_BAD = [
    # oobabooga/textgen#2078 shape: evaluation and load_best switched on with an eval set, saving kept off
    textwrap.dedent("""
    import transformers


    def build_args(eval_data, eval_steps, name):
        return transformers.TrainingArguments(
            output_dir=f"loras/{name}",
            evaluation_strategy="steps" if eval_data is not None else "no",
            eval_steps=eval_steps if eval_data is not None else None,
            save_strategy="no",  # error: PF497
            load_best_model_at_end=eval_data is not None,
        )
"""),
    # load_best with neither evaluation nor saving: nothing to load
    textwrap.dedent("""
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", save_strategy="no", load_best_model_at_end=True)  # error: PF497
"""),
]

PF497_GOOD = [
    # the fix: saving follows evaluation
    textwrap.dedent("""
    import transformers


    def build_args(eval_data, eval_steps, name):
        return transformers.TrainingArguments(
            output_dir=f"loras/{name}",
            evaluation_strategy="steps" if eval_data is not None else "no",
            eval_steps=eval_steps if eval_data is not None else None,
            save_strategy="steps",
            save_steps=eval_steps,
            load_best_model_at_end=eval_data is not None,
        )
"""),
    # tricky-correct: saving off and load_best explicitly off
    textwrap.dedent("""
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="steps", save_strategy="no", load_best_model_at_end=False)
"""),
]
