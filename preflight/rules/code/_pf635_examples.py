"""PF635 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF635_BAD = (
    # accelerate issue 2702's shape: the states come back, the loop restarts at epoch 0
    textwrap.dedent("""\
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    if args.resume:
        accelerator.load_state(args.resume)
    for epoch in range(args.epochs):  # warning: PF635
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        accelerator.save_state(f"ckpt/epoch_{epoch}")
"""),
    # a start variable that is only ever 0
    textwrap.dedent("""\
    from accelerate import Accelerator


    def train(args, model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        first_epoch = 0
        accelerator.load_state(args.ckpt)
        for epoch in range(first_epoch, args.epochs):  # warning: PF635
            for batch in loader:
                accelerator.backward(model(batch).mean())
                optimizer.step()
                optimizer.zero_grad()
"""),
)

PF635_GOOD = (
    # the fix: the epoch comes back from the checkpoint's name
    textwrap.dedent("""\
    import os

    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    starting_epoch = 0
    if args.resume:
        accelerator.load_state(args.resume)
        starting_epoch = int(os.path.basename(args.resume).split("_")[1]) + 1
    for epoch in range(starting_epoch, args.epochs):
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.save_state(f"ckpt/epoch_{epoch}")
"""),
    # tricky-correct: the loop starts at 0 but skips the epochs already done, read back after the load
    textwrap.dedent("""\
    import json

    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    accelerator.load_state("ckpt/last")
    with open("ckpt/last/progress.json") as f:
        done_epochs = json.load(f)["epoch"]
    for epoch in range(args.epochs):
        if epoch < done_epochs:
            continue
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: the state loaded for evaluation only; the loop after it does not train
    textwrap.dedent("""\
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    accelerator.load_state("ckpt/best")
    model.eval()
    for batch in loader:
        with torch.no_grad():
            print(model(**batch).loss.item())
"""),
)
