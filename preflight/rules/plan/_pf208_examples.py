"""PF208 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_NER = dedent("""
    # --- train.py
    import math

    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler


    def main(args, model, train_dataloader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    {before}
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    {after}
        for epoch in range(args.num_train_epochs):
            for batch in train_dataloader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
    """)

_SIZED = """\
    num_update_steps_per_epoch = math.ceil(len(train_dataloader) / args.gradient_accumulation_steps)
    max_train_steps = args.num_train_epochs * num_update_steps_per_epoch
    lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=0,
                                 num_training_steps=max_train_steps){pin}"""

# the same loop written at module level (transformers PR 17046's no_trainer script, rebuilt)
_MODULE = dedent("""
    # --- train.py
    import math

    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler

    from data import model, train_dataloader

    accelerator = Accelerator()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    {before}
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    {after}
    for epoch in range(3):
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
    """)

_MODULE_SIZED = """\
max_train_steps = 3 * math.ceil(len(train_dataloader) / 1)
lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=0,
                             num_training_steps=max_train_steps){pin}"""

PF208_BAD = [
    # accelerate issue 341: counted from the whole loader before prepare, the scheduler not prepared
    _NER.format(before=_SIZED.format(pin="  # warning: PF208"), after=""),
    _MODULE.format(before=_MODULE_SIZED.format(pin="  # warning: PF208"), after=""),
    # torch's OneCycleLR sized inline from the loader before prepare (a launch config's 8 processes)
    dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def train(model, loader, epochs, lr):
        accelerator = Accelerator(mixed_precision="bf16")
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr,
                                                        total_steps=epochs * len(loader))  # warning: PF208
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for _ in range(epochs):
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                accelerator.backward(loss)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --num_processes 8 train.py
    """),
]

PF208_GOOD = [
    # the fix of issue 341: built after prepare, from the prepared (per-process) loader's length
    _NER.format(before="", after=_SIZED.format(pin="")),
    # counted before prepare, and the scheduler is prepared too (AcceleratedScheduler steps it
    # num_processes times per optimizer step, which matches the whole-loader count)
    dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import get_linear_schedule_with_warmup


    def train(model, train_dataloader, num_epochs):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        t_total = len(train_dataloader) * num_epochs
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=100, num_training_steps=t_total)
        model, optimizer, train_dataloader, scheduler = accelerator.prepare(model, optimizer, train_dataloader,
                                                                            scheduler)
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
    """),
    # tricky: counted before prepare but divided by the process count on the way
    _NER.format(before=_SIZED.replace("args.num_train_epochs * num_update_steps_per_epoch",
                                      "args.num_train_epochs * num_update_steps_per_epoch // args.world_size")
                .format(pin=""), after=""),
    # tricky: split_batches=True keeps the prepared loader's number of batches
    _NER.replace("Accelerator()", "Accelerator(split_batches=True)").format(
        before=_SIZED.format(pin=""), after=""),
    # the bug's shape on one process: nothing is sharded
    _NER.replace("--multi_gpu --num_processes 4", "--num_processes 1").format(
        before=_SIZED.format(pin=""), after=""),
    # the fix of the module-level script: sized after prepare, from the sharded loader
    _MODULE.format(before="", after=_MODULE_SIZED.format(pin="")),
]
