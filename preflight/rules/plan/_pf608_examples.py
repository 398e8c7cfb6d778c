"""PF608 examples: small projects (``# --- <path>`` sections; ``# --- expect`` lists the findings a
bad one must give); good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(args, model, dataset):
        engine, optimizer, loader, scheduler = deepspeed.initialize(
            args=args, model=model, model_parameters=model.parameters(), training_data=dataset)
        for batch in loader:
            loss = engine(batch)
            engine.backward(loss)
            engine.step()
""")

_CONFIG = """\
# --- ds_config.json
{{
  "train_batch_size": 64,
  "optimizer": {{"type": "Adam", "params": {{"lr": 1e-4}}}},
  "scheduler": {{
    "type": "{kind}",
    "params": {{"warmup_min_lr": 0, "warmup_max_lr": 1e-4, "warmup_num_steps": {steps}, "total_num_steps": 10000}}
  }}
}}
"""

PF608_BAD = [
    # the held-out case's report: WarmupDecayLR with one warmup step on DeepSpeed 0.3.10
    _TRAIN + _CONFIG.format(kind="WarmupDecayLR", steps=1) + """\
# --- requirements.txt
torch==1.7.1
deepspeed==0.3.10
# --- expect
ds_config.json:6: error: PF608
""",
    _TRAIN + _CONFIG.format(kind="WarmupLR", steps=0) + """\
# --- requirements.txt
deepspeed==0.3.0
# --- expect
ds_config.json:6: error: PF608
""",
]

PF608_GOOD = [
    # the fix: two warmup steps
    _TRAIN + _CONFIG.format(kind="WarmupDecayLR", steps=2) + """\
# --- requirements.txt
deepspeed==0.3.10
""",
    # tricky-correct: the same single step on a release that clamps it
    _TRAIN + _CONFIG.format(kind="WarmupDecayLR", steps=1) + """\
# --- requirements.txt
deepspeed==0.3.13
""",
    # a lower bound: the installed release may be any later one
    _TRAIN + _CONFIG.format(kind="WarmupLR", steps=1) + """\
# --- requirements.txt
deepspeed>=0.3.10
""",
    # no version declared: current releases clamp the count
    _TRAIN + _CONFIG.format(kind="WarmupLR", steps=1),
]
