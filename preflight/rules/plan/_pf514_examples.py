"""PF514 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF514_BAD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

    (args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")  # warning: PF514
    # --- launch
    python train.py --output_dir out --fp16
"""),
    textwrap.dedent("""
    # --- train.py
    import hydra

    model_name = cfg.model_name
    # --- config.yaml
    model_name: google/flan-t5-large
    trainer:
      _target_: lightning.Trainer
      precision: 16-mixed  # warning: PF514
"""),
]

PF514_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

    (args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
    # --- launch
    python train.py --output_dir out --bf16
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModel

    model = AutoModel.from_pretrained("bert-base-uncased")
    # --- launch
    python train.py --fp16
"""),
]
