"""PF641 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": 4,
      "gradient_accumulation_steps": 8,
      "optimizer": {{
        "type": "AdamW",
        "params": {{{lr}"betas": [0.9, 0.98], "eps": 1e-6, "weight_decay": 3e-6}}
      }},
      "scheduler": {{
        "type": "{sched}",
        "params": {{"warmup_min_lr": 0, "warmup_max_lr": 2e-5, "warmup_num_steps": 100, "total_num_steps": 3000}}
      }},
      "bf16": {{"enabled": true}},
      "zero_optimization": {{"stage": 3}}
    }}
    # --- finetune.py
    import deepspeed
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    engine, optimizer, _, scheduler = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for batch in loader:
        loss = engine(**batch).loss
        engine.backward(loss)
        engine.step()
    # --- requirements.txt
    deepspeed{version}
    # --- launch
    deepspeed --num_gpus 8 finetune.py --deepspeed --deepspeed_config ds_config.json
    # --- expect
    {pin}
""")

BAD_EXAMPLES = [
    # held-out-30 (DeepSpeed issue 6569): no lr, WarmupDecayLR, DeepSpeed 0.15.1
    _JOB.format(lr="", pin="ds_config.json:6: warning: PF641", sched="WarmupDecayLR", version="==0.15.1"),
    _JOB.format(lr="", pin="ds_config.json:6: warning: PF641", sched="WarmupLR", version="==0.14.4"),
]

GOOD_EXAMPLES = [
    # the fix: DeepSpeed 0.15.3 initialises the lr from the schedule
    _JOB.format(lr="", pin="", sched="WarmupDecayLR", version="==0.15.3"),
    # tricky-correct: the optimizer block carries lr
    _JOB.format(lr='"lr": 2e-5, ', pin="", sched="WarmupDecayLR", version="==0.15.1"),
    # tricky-correct: not pinned (a lower bound may install a fixed release)
    _JOB.format(lr="", pin="", sched="WarmupDecayLR", version=">=0.14.0"),
    # tricky-correct: a scheduler type the fix did not touch
    _JOB.format(lr="", pin="", sched="OneCycle", version="==0.15.1"),
]
