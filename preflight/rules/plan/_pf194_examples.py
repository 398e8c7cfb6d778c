"""PF194 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""\
    # --- qlora.py
    from dataclasses import dataclass, field

    import transformers
    from transformers import HfArgumentParser


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="huggyllama/llama-7b")


    @dataclass
    class TrainingArguments(transformers.Seq2SeqTrainingArguments):
        optim: str = field(default="paged_adamw_32bit")
        max_steps: int = field(default={default}, metadata={{"help": "How many optimizer update steps to take"}}){pin}
        learning_rate: float = field(default=2e-4)


    def main():
        model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
        return model_args, training_args
    # --- launch
    python qlora.py --model_name_or_path huggyllama/llama-7b {flags} --output_dir out
    """)

BAD_EXAMPLES = [
    # artidoro/qlora PR 87: two epochs asked for on a small set, the dataclass default of 10000 steps wins
    _SCRIPT.format(default=10000, pin="  # warning: PF194", flags="--num_train_epochs 2"),
]

GOOD_EXAMPLES = [
    # the fix: --max_steps -1 beside the epochs
    _SCRIPT.format(default=10000, pin="", flags="--num_train_epochs 2 --max_steps -1"),
    # tricky-correct: the field defaults to -1 (the Trainer's own), and a run sized by steps (no epochs given)
    _SCRIPT.format(default=-1, pin="", flags="--num_train_epochs 3"),
    _SCRIPT.format(default=10000, pin="", flags="--per_device_train_batch_size 4"),
]
