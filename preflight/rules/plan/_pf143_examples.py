"""PF143 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- run_squad.py
    import argparse

    import deepspeed
    import torch
    from schedulers import LinearWarmUpScheduler

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-5)
    {init}
    {sched}{mark}
    for batch in loader:
        loss = model(*batch)
        model.backward(loss)
        model.step()
        scheduler.step()
    # --- ds_config.json
    {{"train_batch_size": 96, "fp16": {{"enabled": true}}, "zero_optimization": {zero}}}
    # --- launch
    deepspeed --num_gpus 8 run_squad.py --deepspeed --deepspeed_config ds_config.json
""")

_INIT = "model, optimizer, _, _ = deepspeed.initialize(args=args, model=model, optimizer=optimizer)"
_SCHED = "scheduler = LinearWarmUpScheduler(optimizer, warmup=0.1, total_steps=total_steps)"

PF143_BAD = [
    # DeepSpeed issue 122: NVIDIA's warmup scheduler around the returned ZeRO optimizer
    _JOB.format(init=_INIT, sched=_SCHED, mark="  # error: PF143", zero="true"),
    # a transformers schedule helper, ZeRO stage 2
    _JOB.format(init=_INIT.replace("optimizer, _, _", "opt, _, _"),
                sched="scheduler = get_linear_schedule_with_warmup(opt, 100, total_steps)",
                mark="  # error: PF143", zero='{"stage": 2}').replace(
                    "from schedulers import LinearWarmUpScheduler",
                    "from transformers import get_linear_schedule_with_warmup"),
]

PF143_GOOD = [
    # the fix: the schedule is built on the client optimizer and handed to DeepSpeed
    _JOB.format(init=_SCHED + "\n" + _INIT.replace("optimizer=optimizer)", "optimizer=optimizer, lr_scheduler=scheduler)"),
                sched="", mark="", zero="true"),
    # ZeRO disabled: the returned optimizer is the client one (fp16 aside)
    _JOB.format(init=_INIT, sched=_SCHED, mark="", zero='{"stage": 0}'),
    # tricky: the branch without DeepSpeed binds its own torch optimizer (CosyVoice's train_utils shape)
    _JOB.format(init="if use_ds:\n    " + _INIT + "\nelse:\n    optimizer = torch.optim.Adam(model.parameters())",
                sched=_SCHED, mark="", zero='{"stage": 2}'),
    # tricky: DeepSpeed's own schedule accepts its optimizer
    _JOB.format(init=_INIT, sched="scheduler = WarmupLR(optimizer, warmup_num_steps=100)", mark="",
                zero='{"stage": 2}').replace(
                    "from schedulers import LinearWarmUpScheduler",
                    "from deepspeed.runtime.lr_schedules import WarmupLR"),
]
