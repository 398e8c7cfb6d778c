"""PF317 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import get_cosine_schedule_with_warmup

    accelerator = Accelerator({ctor})
    model = build_model()
    train_loader = token_loader("data", batch_size=256)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    total_steps = 10 * len(train_loader)
    scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=2000{warm},
                                                num_training_steps=total_steps{total}){pin}
    model, optimizer, train_loader, scheduler = accelerator.prepare({prepared})
    for x, y in train_loader:
        accelerator.backward(model(x, y))
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
""")

_N = " * accelerator.num_processes"
_ALL = "model, optimizer, train_loader, scheduler"

PF317_BAD = [
    # held-out-27 (accelerate issue 2708): split batches, warmup and total multiplied by the process count
    _JOB.format(ctor="split_batches=True, mixed_precision=\"bf16\"", warm=_N, total=_N, pin="  # warning: PF317",
                prepared=_ALL),
    # the same through a DataLoaderConfiguration bound once; only the total multiplied
    textwrap.dedent("""
    from accelerate import Accelerator, DataLoaderConfiguration
    from transformers import get_scheduler

    dl_config = DataLoaderConfiguration(split_batches=True)
    accelerator = Accelerator(dataloader_config=dl_config)
    optimizer = build_optimizer(model)
    lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100,
                                 num_training_steps=max_steps * accelerator.num_processes)  # warning: PF317
    model, optimizer, lr_scheduler = accelerator.prepare(model, optimizer, lr_scheduler)
"""),
]

PF317_GOOD = [
    # the fix: optimizer steps, no factor
    _JOB.format(ctor="split_batches=True", warm="", total="", pin="", prepared=_ALL),
    # tricky-correct: the default mode (batches not split) needs the factor (PF524's fix)
    _JOB.format(ctor="mixed_precision=\"bf16\"", warm=_N, total=_N, pin="", prepared=_ALL),
    _JOB.format(ctor="split_batches=False", warm=_N, total=_N, pin="", prepared=_ALL),
    # tricky-correct: the scheduler is not prepared (stepped as written); split_batches from **kwargs
    _JOB.format(ctor="split_batches=True", warm=_N, total=_N, pin="", prepared="model, optimizer, train_loader"),
    _JOB.format(ctor="**accelerator_kwargs", warm=_N, total=_N, pin="", prepared=_ALL),
]
