"""PF511 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF511_BAD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds.json", max_grad_norm=1.0)  # warning: PF511
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
"""),
    # `--max_grad_norm` on the launch command, parsed by HfArgumentParser (a shape the rule
    # missed when probed while hunting)
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=model, args=args, train_dataset=ds).train()
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto",
     "gradient_clipping": 1.0,
     "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 2 train.py --output_dir out --deepspeed ds.json --max_grad_norm 0.3
    # --- expect
    ds.json:2: warning: PF511
"""),
    # accelerate issue 3807: accelerator.clip_grad_norm_ under DeepSpeed (from the accelerate config)
    # is a no-op, and the DeepSpeed JSON it names sets no gradient_clipping
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)  # warning: PF511
        optimizer.step()
        optimizer.zero_grad()
    # --- accelerate_config.yaml
    distributed_type: DEEPSPEED
    num_processes: 8
    deepspeed_config:
      deepspeed_config_file: ds_config.json
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train.py
"""),
]

PF511_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds.json", max_grad_norm=1.0)
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
"""),
    # max_grad_norm left at its default
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
"""),
    # the fix: the DeepSpeed JSON clips; and DeepSpeed set up in the accelerate config itself, with its
    # gradient_clipping
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
    # --- accelerate_config.yaml
    distributed_type: DEEPSPEED
    num_processes: 8
    deepspeed_config:
      deepspeed_config_file: ds_config.json
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train.py
"""),
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
    # --- accelerate_config.yaml
    distributed_type: DEEPSPEED
    num_processes: 8
    deepspeed_config:
      zero_stage: 2
      gradient_clipping: 1.0
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train.py
"""),
]
