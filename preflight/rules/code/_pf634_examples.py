"""PF634 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF634_BAD = (
    # the diffusers-script shape: warmup and length multiplied by the accumulation steps
    textwrap.dedent("""\
    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler

    accelerator = Accelerator(gradient_accumulation_steps=args.accum)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scheduler = get_scheduler(
        "cosine", optimizer=optimizer,
        num_warmup_steps=args.warmup * args.accum,  # warning: PF634
        num_training_steps=args.max_steps * args.gradient_accumulation_steps,  # warning: PF634
    )
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
"""),
)

PF634_GOOD = (
    # the fix: lengths in optimizer steps (times the processes, as the prepared scheduler steps once per process)
    textwrap.dedent("""\
    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler

    accelerator = Accelerator(gradient_accumulation_steps=args.accum)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scheduler = get_scheduler(
        "cosine", optimizer=optimizer,
        num_warmup_steps=args.warmup * accelerator.num_processes,
        num_training_steps=args.max_steps * accelerator.num_processes,
    )
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: accumulation by hand, the prepared scheduler stepped every micro-batch: a length in
    # micro-batches is the right one
    textwrap.dedent("""\
    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler

    accelerator = Accelerator()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100 * args.gradient_accumulation_steps,
                              num_training_steps=args.max_steps * args.gradient_accumulation_steps)
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    for i, batch in enumerate(loader):
        loss = model(**batch).loss / args.gradient_accumulation_steps
        accelerator.backward(loss)
        if (i + 1) % args.gradient_accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
        scheduler.step()
"""),
    # tricky-correct: the scheduler is not prepared and is stepped by the loop once per micro-batch
    textwrap.dedent("""\
    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler

    accelerator = Accelerator(gradient_accumulation_steps=4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100,
                              num_training_steps=args.max_steps * 4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        scheduler.step()
"""),
)
