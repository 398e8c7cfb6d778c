"""PF503 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF503_BAD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 2,
  "fp16": {"enabled": true},
  "bf16": {"enabled": true},
  "zero_optimization": {"stage": 2}
}
# --- expect
ds_config.json:4: error: PF503
""",
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", fp16=True, bf16=True)  # error: PF503
"""),
]

PF503_GOOD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 2,
  "fp16": {"enabled": "auto"},
  "bf16": {"enabled": "auto"},
  "zero_optimization": {"stage": 2}
}
""",
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", fp16=False, bf16=True)
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    bf16: true
    fp16: false
"""),
]
