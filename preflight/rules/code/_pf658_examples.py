"""PF658 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF658`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

_LOOP = """\
    import math

    from accelerate import Accelerator

    max_train_steps = 4000
    gradient_accumulation_steps = 2
    accelerator = Accelerator(gradient_accumulation_steps=gradient_accumulation_steps, mixed_precision="bf16")
    unet, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(unet, optimizer, train_dataloader,
                                                                          lr_scheduler)
    {steps}
    num_train_epochs = math.ceil(max_train_steps / num_update_steps_per_epoch)
    global_step = 0
    for epoch in range(num_train_epochs):
        for batch in train_dataloader:
            with accelerator.accumulate(unet):
                loss = compute_loss(unet, batch)
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
            {count}
                global_step += 1
            if global_step >= max_train_steps:
                break
"""


def _job(steps: str, count: str = "if accelerator.sync_gradients:") -> str:
    return textwrap.dedent(_LOOP).replace("{steps}", steps).replace("{count}", count)


BAD_EXAMPLES = [
    # SimpleTuner issue 160: the epochs ignore the accumulation, the run stops at half the updates
    _job("num_update_steps_per_epoch = len(train_dataloader)  # warning: PF658"),
]

GOOD_EXAMPLES = [
    # the fix (diffusers' and Accelerate's example scripts)
    _job("num_update_steps_per_epoch = math.ceil(len(train_dataloader) / gradient_accumulation_steps)"),
    # tricky: the counter grows on every batch, so the loader length counts the same steps
    _job("num_update_steps_per_epoch = len(train_dataloader)", count="if True:"),
]
