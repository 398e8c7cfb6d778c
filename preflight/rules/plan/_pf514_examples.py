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
    # DeepSpeed issue 643: T5-large trained by DeepSpeed with the config's fp16 section on
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "fp16": {
        "enabled": true,
        "loss_scale": 0
      },
      "zero_optimization": {"stage": 2}
    }
    # --- launch
    deepspeed --num_gpus 1 train.py
    # --- expect
    ds_config.json:4: warning: PF514
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
    # the fix of DeepSpeed issue 643: bf16 in the DeepSpeed config (and fp16 explicitly off)
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "fp16": {"enabled": false}, "bf16": {"enabled": true}}
    # --- launch
    deepspeed --num_gpus 1 train.py
"""),
]
