"""PF510 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF510_BAD = [
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
    # --- expect
    ds.json:1: error: PF510
"""),
    # the script fills the batch size but not the clipping, which stays "auto"
    textwrap.dedent("""
    # --- train.py
    import json

    import deepspeed

    with open("ds.json") as f:
        ds_config = json.load(f)
    ds_config["train_micro_batch_size_per_gpu"] = 4
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": "auto",
      "gradient_clipping": "auto",
      "zero_optimization": {"stage": 2}
    }
    # --- expect
    ds.json:3: error: PF510
"""),
]

PF510_GOOD = [
    # the HF Trainer fills the "auto" values
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds.json", per_device_train_batch_size=4)
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
"""),
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 4, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}
"""),
    # Roblox/FAI-RL PR 70's fix: the script writes every "auto" value into the loaded dict
    textwrap.dedent("""
    # --- train.py
    import json

    import deepspeed


    def main(model, micro_batch=4, accumulation=8, world_size=2):
        with open("ds_zero3.json") as f:
            ds_config = json.load(f)
        ds_config["train_micro_batch_size_per_gpu"] = micro_batch
        ds_config["gradient_accumulation_steps"] = accumulation
        ds_config.update({"train_batch_size": micro_batch * accumulation * world_size})
        ds_config["zero_optimization"]["stage3_prefetch_bucket_size"] = 5e7
        return deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    # --- ds_zero3.json
    {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
     "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"}}
"""),
]
