"""PF195 examples: small projects (``# --- <path>`` sections); bad ones must fire on the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch

    model = torch.nn.Linear(512, 10)
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    for batch, target in loader:
        loss = torch.nn.functional.cross_entropy(engine(batch), target)
        engine.backward(loss)
        engine.step()
    """)

_CONFIG = textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 32,
      "optimizer": {
        "type": "Adam",
        "params": {
          "lr": 0.0001,
          "betas": [0.9, 0.999],
          "eps": 1e-8,
          "weight_decay": 0.0005
        }
      },
      "bf16": {"enabled": true}
    }
    """)

BAD = [
    # DeepSpeed issue 668: "Adam" is AdamW unless adam_w_mode is false; an L2 weight decay ported from
    # torch.optim.Adam becomes a decoupled decay of lr * 5e-4 per step
    _TRAIN + _CONFIG + "# --- expect\nds_config.json:9: warning: PF195\n",
    # lower-case type, ZeRO-Offload (DeepSpeedCPUAdam, adamw_mode defaulted the same way), YAML-free HF job
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds_zero2.json", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds)
    trainer.train()
    # --- ds_zero2.json
    {"train_micro_batch_size_per_gpu": "auto",
     "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}},
     "optimizer": {"type": "adam", "params": {"lr": "auto", "weight_decay": 1e-4}}}
    # --- expect
    ds_zero2.json:3: warning: PF195
    """),
]

GOOD = [
    # AdamW asked for by name
    _TRAIN + _CONFIG.replace('"type": "Adam"', '"type": "AdamW"').replace("0.0005", "0.01"),
    # L2 Adam asked for explicitly
    _TRAIN + _CONFIG.replace('"eps": 1e-8,', '"eps": 1e-8,\n      "adam_w_mode": false,'),
    # tricky: adam_w_mode true written out: the user knows it is AdamW
    _TRAIN + _CONFIG.replace('"eps": 1e-8,', '"eps": 1e-8,\n      "adam_w_mode": true,'),
    # no decay: Adam and AdamW are the same update
    _TRAIN + _CONFIG.replace('"weight_decay": 0.0005', '"weight_decay": 0.0'),
    # tricky: DeepSpeed's documented example decay, 3e-7: negligible as either penalty
    _TRAIN + _CONFIG.replace('"weight_decay": 0.0005', '"weight_decay": 3e-7'),
    # tricky: GPT-style AdamW hyperparameters (betas 0.95, decay 0.1) under "Adam": AdamW is what was meant
    _TRAIN + _CONFIG.replace('"weight_decay": 0.0005', '"weight_decay": 0.1').replace("0.999", "0.95"),
    # tricky: "auto" (the HF integration fills TrainingArguments.weight_decay, meant for its AdamW)
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds_zero2.json", weight_decay=0.01)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds)
    trainer.train()
    # --- ds_zero2.json
    {"train_micro_batch_size_per_gpu": "auto",
     "zero_optimization": {"stage": 2},
     "optimizer": {"type": "Adam", "params": {"lr": "auto", "weight_decay": "auto"}}}
    """),
    # tricky: a client optimizer: DeepSpeed never builds the config's optimizer block
    _TRAIN.replace("model_parameters=model.parameters(),",
                   "optimizer=torch.optim.Adam(model.parameters(), lr=1e-4, weight_decay=5e-4),") + _CONFIG,
]
