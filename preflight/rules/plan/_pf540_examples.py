"""PF540 examples: small DeepSpeed jobs (``# --- <path>`` sections); bad ones must fire at the
pinned line, good ones stay silent."""

from __future__ import annotations

_CONFIG = """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {"device": "cpu", "pin_memory": true}
  }{extra}
}
"""

_SCRIPT = """
# --- finetune.py
import json

import deepspeed
import torch
{imports}

ds_config = json.load(open("ds_config.json"))
model = build_model()
optimizer = {optimizer}
engine, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config=ds_config)
"""

PF540_BAD = [
    # LMFlow issue 470: a client torch AdamW with the optimizer offloaded to CPU
    _SCRIPT.replace("{imports}", "").replace(
        "{optimizer}", "torch.optim.AdamW(model.parameters(), lr=2e-5)  # error: PF540")
    + _CONFIG.replace("{extra}", ""),
]

PF540_GOOD = [
    # the fix: DeepSpeed's CPU Adam
    _SCRIPT.replace("{imports}", "from deepspeed.ops.adam import DeepSpeedCPUAdam").replace(
        "{optimizer}", "DeepSpeedCPUAdam(model.parameters(), lr=2e-5)")
    + _CONFIG.replace("{extra}", ""),
    # or an optimizer section: DeepSpeed builds a compatible optimizer
    _SCRIPT.replace("{imports}", "").replace("{optimizer}", "None")
    + _CONFIG.replace("{extra}", ',\n  "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}'),
    # no offload: any client optimizer is fine
    _SCRIPT.replace("{imports}", "").replace("{optimizer}", "torch.optim.AdamW(model.parameters(), lr=2e-5)")
    + _CONFIG.replace('"offload_optimizer": {"device": "cpu", "pin_memory": true}', '"overlap_comm": true')
    .replace("{extra}", ""),
]
