"""PF547 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    # --- run_translation.py
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def main(train_dataset):
        (training_args,) = HfArgumentParser((Seq2SeqTrainingArguments,)).parse_args_into_dataclasses()
        model = AutoModelForSeq2SeqLM.from_pretrained("t5-base")
        trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_dataset)
        trainer.train()
""")

_CONFIG = """\
# --- ds_config.json
{
  "fp16": {"enabled": "auto"},
  "optimizer": {
    "type": "AdamW",
    "params": {"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}
  },
  "zero_optimization": {"stage": 2},
  "train_micro_batch_size_per_gpu": "auto"
}
"""

_NO_OPTIMIZER = """\
# --- ds_config.json
{
  "fp16": {"enabled": "auto"},
  "zero_optimization": {"stage": 2},
  "zero_allow_untested_optimizer": true,
  "train_micro_batch_size_per_gpu": "auto"
}
"""

_LAUNCH = """\
# --- launch
deepspeed --num_gpus 2 run_translation.py --output_dir out --do_train --learning_rate 1e-3 {flag} --deepspeed ds_config.json
"""

BAD_EXAMPLES = [
    # transformers issue 11749: --adafactor next to a config optimizer
    _SCRIPT + _CONFIG + _LAUNCH.format(flag="--adafactor") + """\
# --- expect
ds_config.json:3: warning: PF547
""",
    # adafactor=True written in the script's arguments
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments


    def main(model, train_dataset):
        args = TrainingArguments(output_dir="out", adafactor=True, deepspeed="ds_config.json", learning_rate=1e-3)
        Trainer(model=model, args=args, train_dataset=train_dataset).train()
""") + _CONFIG + """\
# --- expect
ds_config.json:3: warning: PF547
""",
]

GOOD_EXAMPLES = [
    # the fix: the config leaves the optimizer to the Trainer
    _SCRIPT + _NO_OPTIMIZER + _LAUNCH.format(flag="--adafactor"),
    # tricky-correct: the flag switched off explicitly
    _SCRIPT + _CONFIG + _LAUNCH.format(flag="--adafactor false"),
    # nothing requested
    _SCRIPT + _CONFIG + _LAUNCH.format(flag=""),
]
