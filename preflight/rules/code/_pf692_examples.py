"""PF692 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# FunASR PR 3472's shape: no_sync chosen by `batch_idx % accum`, the step by `(batch_idx + 1) % accum`
_TRAINER = textwrap.dedent("""
    import contextlib
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train_epoch(model, loader, optimizer, accum_grad, local_rank):
        model = DDP(model, device_ids=[local_rank])
        for batch_idx, batch in enumerate(loader):
            {context}
            with my_context():
                loss = model(**batch)["loss"] / accum_grad
                loss.backward()
            if (batch_idx + 1) % accum_grad == 0:
                optimizer.step()
                optimizer.zero_grad()
""")

BAD_EXAMPLES = [
    _TRAINER.format(context="my_context = (model.no_sync if batch_idx % accum_grad != 0  # error: PF692\n"
                            "                          else contextlib.nullcontext)"),
    # the if/else form: synchronises on the micro-batch after the step
    textwrap.dedent("""
    for step, (x, y) in enumerate(loader):
        if step % accum != 0:  # error: PF692
            with model.no_sync():
                loss = criterion(model(x), y) / accum
                loss.backward()
        else:
            loss = criterion(model(x), y) / accum
            loss.backward()
        if (step + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
    """),
    # a flag bound to the opposite test: no_sync exactly on the micro-batches that step
    textwrap.dedent("""
    for i, batch in enumerate(loader):
        boundary = (i + 1) % accum == 0
        ctx = model.no_sync() if boundary else contextlib.nullcontext()  # error: PF692
        with ctx:
            model(batch).loss.backward()
        if (i + 1) % accum == 0:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
    """),
]

GOOD_EXAMPLES = [
    # the fix: the same test for both decisions
    _TRAINER.format(context="my_context = (model.no_sync if (batch_idx + 1) % accum_grad != 0\n"
                            "                          else contextlib.nullcontext)"),
    # one flag for both
    textwrap.dedent("""
    for i, batch in enumerate(loader):
        is_step = (i + 1) % accum == 0
        with (contextlib.nullcontext() if is_step else model.no_sync()):
            model(batch).loss.backward()
        if is_step:
            optimizer.step()
            optimizer.zero_grad()
    """),
    # tricky: a counter that starts at 1 tested the same way in both places
    textwrap.dedent("""
    for it in range(1, total + 1):
        x, y = next(batches)
        if it % accum:
            with model.no_sync():
                criterion(model(x), y).backward()
        else:
            criterion(model(x), y).backward()
        if it % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
    """),
    # tricky: different counters (the window counts optimizer steps elsewhere): not comparable, silent
    textwrap.dedent("""
    for i, batch in enumerate(loader):
        if micro % accum != 0:
            with model.no_sync():
                model(batch).loss.backward()
        else:
            model(batch).loss.backward()
        if (i + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
        micro += 1
    """),
]
