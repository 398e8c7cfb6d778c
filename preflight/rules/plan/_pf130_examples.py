"""PF130 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF130_BAD = [
    # ZeRO-2 with the optimizer offloaded to the CPU and torch_adam forcing torch.optim.AdamW
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "zero_optimization": {
        "stage": 2,
        "offload_optimizer": {"device": "cpu", "pin_memory": true}
      },
      "optimizer": {
        "type": "AdamW",
        "params": {
          "lr": 2e-5,
          "torch_adam": true
        }
      }
    }
    # --- expect
    ds.json:11: warning: PF130
"""),
]

PF130_GOOD = [
    # the fix: no torch_adam, DeepSpeed builds DeepSpeedCPUAdam for the offloaded optimizer
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "zero_optimization": {
        "stage": 2,
        "offload_optimizer": {"device": "cpu", "pin_memory": true}
      },
      "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}
    }
"""),
    # tricky: torch_adam without offload picks torch's Adam over FusedAdam on the GPU, a legitimate choice
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "none"}},
      "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "torch_adam": true}}
    }
"""),
]
