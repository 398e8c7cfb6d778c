"""PF635 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# diffusers issue 8236's shape: train_text_to_image.py with --num_train_epochs on 8 GPUs
_SCRIPT = dedent("""
    # --- train.py
    import argparse
    import math

    from accelerate import Accelerator
    from diffusers.optimization import get_scheduler
    from torch.utils.data import DataLoader

    from data import build

    parser = argparse.ArgumentParser()
    parser.add_argument("--num_train_epochs", type=int, default=100)
    parser.add_argument("--max_train_steps", type=int, default=None)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    args = parser.parse_args()

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, dataset = build()
    train_dataloader = DataLoader(dataset, batch_size=16, shuffle=True)
    {count}
    if args.max_train_steps is None:
        args.max_train_steps = args.num_train_epochs * num_update_steps_per_epoch
    lr_scheduler = get_scheduler(
        "cosine",
        optimizer=optimizer,
        num_warmup_steps=500 * accelerator.num_processes,
        num_training_steps={total},
    )
    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, lr_scheduler)
    for epoch in range(args.num_train_epochs):
        for batch in train_dataloader:
            with accelerator.accumulate(model):
                accelerator.backward(model(batch))
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py {cli}
    """)

_BEFORE = "num_update_steps_per_epoch = math.ceil(len(train_dataloader) / args.gradient_accumulation_steps)"
_SHARDED = ("len_after_sharding = math.ceil(len(train_dataloader) / accelerator.num_processes)\n"
            "num_update_steps_per_epoch = math.ceil(len_after_sharding / args.gradient_accumulation_steps)")

PF635_BAD = [
    _SCRIPT.format(count=_BEFORE, cli="--num_train_epochs 100",
                   total="args.max_train_steps * accelerator.num_processes,  # warning: PF635"),
    _SCRIPT.format(count=_BEFORE, cli="",
                   total="accelerator.num_processes * args.max_train_steps,  # warning: PF635"),
]

PF635_GOOD = [
    # the fix (diffusers PR 8312): the loader length divided by the process count before prepare
    _SCRIPT.format(count=_SHARDED, cli="", total="args.max_train_steps * accelerator.num_processes"),
    # tricky-correct: the step count given on the launch line is per process, so multiplying is right
    _SCRIPT.format(count=_BEFORE, cli="--max_train_steps 20000",
                   total="args.max_train_steps * accelerator.num_processes"),
    # the whole-dataset count NOT multiplied (a prepared scheduler steps once per process)
    _SCRIPT.format(count=_BEFORE, cli="", total="args.max_train_steps"),
    # a count from a constant
    _SCRIPT.format(count="num_update_steps_per_epoch = 1000", cli="",
                   total="args.max_train_steps * accelerator.num_processes"),
]
