"""PF550 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF550_BAD = [
    # DeepSpeed issue 102: Lamb with max_grad_norm in its params, fp16 on
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_batch_size": 4096,
      "train_micro_batch_size_per_gpu": 64,
      "optimizer": {
        "type": "Lamb",
        "params": {
          "lr": 0.006,
          "max_grad_norm": 1.0
        }
      },
      "fp16": {"enabled": true}
    }
    # --- expect
    ds.json:8: error: PF550
"""),
    # no fp16: current DeepSpeed still refuses the key (ValueError at initialize)
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 8,
     "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "max_grad_norm": 0.5}},
     "bf16": {"enabled": true}}
    # --- expect
    ds.json:2: error: PF550
"""),
]

PF550_GOOD = [
    # the supported spelling: top-level gradient_clipping
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 64,
      "optimizer": {"type": "Lamb", "params": {"lr": 0.006, "weight_decay": 0.01}},
      "gradient_clipping": 1.0,
      "fp16": {"enabled": true}
    }
"""),
    # tricky: max_grad_norm is a TrainingArguments key in the HF Trainer's own YAML, not a DeepSpeed
    # optimizer parameter; the DeepSpeed config next to it has no optimizer block
    textwrap.dedent("""
    # --- train.py
    import yaml
    from transformers import TrainingArguments

    args = TrainingArguments(**yaml.safe_load(open("args.yaml")))
    # --- args.yaml
    output_dir: out
    max_grad_norm: 1.0
    deepspeed: ds.json
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
"""),
]

PF550_GOOD.append(
    # tricky: a client optimizer (Megatron-DeepSpeed's curriculum examples): DeepSpeed never builds the
    # config's optimizer block, so its max_grad_norm is neither applied nor refused; gradient_clipping clips
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch

    optimizer = torch.optim.AdamW(model.parameters(), lr=1.5e-4)
    engine, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config="ds.json")
    # --- ds.json
    {"train_batch_size": 512,
     "optimizer": {"type": "AdamW", "params": {"lr": 0.00015, "max_grad_norm": 1.0}},
     "gradient_clipping": 1.0,
     "fp16": {"enabled": true}}
"""))

# det125: fp16 with ZeRO stage 0 on an unpinned DeepSpeed is also PF198's (since 0.18.3 engine.backward never
# multiplies the loss by the scale the FP16 optimizer divides by)
PF550_BAD[0] = PF550_BAD[0].rstrip("\n") + "\nds.json:11: warning: PF198\n"
