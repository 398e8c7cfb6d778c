"""PF165 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = """
    # --- run_translation.py
    from transformers import (AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainer,
                              Seq2SeqTrainingArguments)

    model_args, data_args, training_args = HfArgumentParser(
        (ModelArguments, DataArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained(model_args.model_name_or_path)
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_ds){pin}
    trainer.train()
    # --- launch
    accelerate launch --multi_gpu --num_processes 2 {launcher} run_translation.py --model_name_or_path Helsinki-NLP/opus-mt-en-ro --do_train --output_dir /tmp/tst {flags}
    # --- requirements.txt
    transformers=={version}
    accelerate==0.19.0
"""


def _job(launcher: str = "--mixed_precision=fp16", flags: str = "", pin: str = "",
         version: str = "4.29.2") -> str:
    return textwrap.dedent(_SCRIPT.replace("{launcher}", launcher).replace("{flags}", flags)
                           .replace("{pin}", pin).replace("{version}", version))


PF165_BAD = [
    # accelerate issue 1432 (held-out-43): run_translation.py under --mixed_precision=fp16, no --fp16
    _job(pin="  # warning: PF165"),
    # bf16 asked for with the separate-value form
    _job(launcher="--mixed_precision bf16", pin="  # warning: PF165", version="4.28.1"),
]

PF165_GOOD = [
    # the fix: the Trainer's own flag as well
    _job(flags="--fp16"),
    # tricky-correct: transformers 4.30 and later read the launcher's choice from the environment
    _job(version="4.41.2"),
    # tricky-correct: the launcher asks for no mixed precision; or the flag belongs to the script
    _job(launcher="--mixed_precision=no"),
    _job(launcher="", flags="--mixed_precision fp16 --fp16"),
]
