"""Examples of PF681 (accelerate-schedule-counts-micro-batches): accelerate's by_feature
gradient_accumulation.py as in accelerate issue 1160 (0.16.0, ``--gradient_accumulation_steps 5``)."""

from __future__ import annotations

import textwrap

_W = "  # warning: PF681"

_JOB = textwrap.dedent("""
    # --- train.py
    import argparse
    import math

    import torch
    from accelerate import Accelerator
    from transformers import get_linear_schedule_with_warmup

    from task import build_loader, build_model

    parser = argparse.ArgumentParser()
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    args = parser.parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model = build_model()
    train_dataloader = build_loader()
    num_epochs = 3
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer=optimizer,
        num_warmup_steps=100,
        num_training_steps={length},{pin}
    )
    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare({prepared})
    for epoch in range(num_epochs):
        for batch in train_dataloader:
            with accelerator.accumulate(model):
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                {step}
                optimizer.zero_grad()
    # --- requirements.txt
    accelerate{version}
    # --- launch
    accelerate launch train.py --gradient_accumulation_steps {ga}
""")

_MICRO = "(len(train_dataloader) * num_epochs)"
_UPDATES = "math.ceil(len(train_dataloader) / args.gradient_accumulation_steps) * num_epochs"
_ALL = "model, optimizer, train_dataloader, lr_scheduler"
_NO_SCHED = "model, optimizer, train_dataloader"


def _job(length: str = _MICRO, pin: str = "", version: str = "==0.16.0", ga: int = 5, prepared: str = _ALL,
         step: str = "lr_scheduler.step()") -> str:
    return _JOB.format(length=length, pin=pin, version=version, ga=ga, prepared=prepared, step=step)


BAD_EXAMPLES = [
    # accelerate issue 1160: the schedule counts micro-batches on 0.16.0 with 5-step accumulation
    _job(pin=_W),
    # the same unpinned (a current release) with a cosine schedule sized through a variable
    _job(length="total_steps", pin=_W, version="").replace(
        "lr_scheduler = get_linear", "total_steps = len(train_dataloader) * num_epochs\nlr_scheduler = get_linear"),
]

GOOD_EXAMPLES = [
    # the fix: the schedule in optimizer steps
    _job(length=_UPDATES),
    # no accumulation
    _job(ga=1),
    # tricky-correct: accelerate 0.12.0 steps the prepared scheduler on every micro-batch (accelerate PR 500)
    _job(version="==0.12.0"),
    # the scheduler not prepared: stepped by hand on every micro-batch, the micro-batch count is its length
    _job(prepared=_NO_SCHED).replace(f"{_ALL} = accelerator.prepare", f"{_NO_SCHED} = accelerator.prepare"),
    # a step count of its own (diffusers' args.max_train_steps): its unit is not read
    _job(length="args.max_train_steps * accelerator.num_processes").replace(
        "args = parser.parse_args()", 'parser.add_argument("--max_train_steps", type=int, default=1000)\n'
                                      "args = parser.parse_args()"),
]
