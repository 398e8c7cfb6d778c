"""PF256 examples: executable documentation. A bad example lists the lines it must be reported on
under ``# --- expect``; the meta-test asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    # --- sft.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
""")

PF256_BAD = [
    # accelerate issue 3197's shape: fp16 in the accelerate config, bf16 in the DeepSpeed JSON
    _SCRIPT + textwrap.dedent("""
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      deepspeed_config_file: ds_zero3.json
      zero3_init_flag: true
    distributed_type: DEEPSPEED
    mixed_precision: fp16
    num_processes: 2
    # --- ds_zero3.json
    {"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml sft.py
    # --- expect
    accelerate_config.yaml:6: error: PF256
"""),
    # the launch line's --mixed_precision bf16 against an fp16 JSON
    _SCRIPT + textwrap.dedent("""
    # --- acc.yaml
    deepspeed_config:
      deepspeed_config_file: ds.json
    distributed_type: DEEPSPEED
    num_processes: 8
    # --- ds.json
    {"fp16": {"enabled": true, "loss_scale": 0}, "zero_optimization": {"stage": 2}}
    # --- launch
    accelerate launch --config_file acc.yaml --mixed_precision bf16 sft.py
    # --- expect
    acc.yaml:1: error: PF256
"""),
]

PF256_GOOD = [
    # the fix: both bf16
    _SCRIPT + textwrap.dedent("""
    # --- accelerate_config.yaml
    deepspeed_config:
      deepspeed_config_file: ds_zero3.json
    distributed_type: DEEPSPEED
    mixed_precision: bf16
    num_processes: 2
    # --- ds_zero3.json
    {"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml sft.py
"""),
    # tricky: the JSON leaves the format to Accelerate ("auto"), or says false for the other one
    _SCRIPT + textwrap.dedent("""
    # --- accelerate_config.yaml
    deepspeed_config:
      deepspeed_config_file: ds.json
    distributed_type: DEEPSPEED
    mixed_precision: fp16
    num_processes: 2
    # --- ds.json
    {"bf16": {"enabled": "auto"}, "fp16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml sft.py
"""),
    # tricky: an fp16 JSON that also says bf16 is off, run with mixed_precision fp16
    _SCRIPT + textwrap.dedent("""
    # --- accelerate_config.yaml
    deepspeed_config:
      deepspeed_config_file: ds.json
    distributed_type: DEEPSPEED
    mixed_precision: fp16
    num_processes: 2
    # --- ds.json
    {"fp16": {"enabled": true}, "bf16": {"enabled": false}, "zero_optimization": {"stage": 2}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml sft.py
"""),
]
