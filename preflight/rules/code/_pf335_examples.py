"""PF335 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_NANOT5 = textwrap.dedent("""
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def main(args, model, train_loader):
        if args.optim.epochs > 0:
            args.optim.total_steps = {total}{pin}
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.optim.base_lr)
        scheduler = get_cosine_schedule_with_warmup(optimizer, args.optim.warmup_steps, args.optim.total_steps)
        step = 1
        while step <= args.optim.total_steps:
            for batch_id, batch in enumerate(train_loader, start=1):
                loss = model(**batch).loss
                (loss / args.optim.grad_acc).backward()
                if batch_id % args.optim.grad_acc == 0:
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad(set_to_none=True)
                    step += 1
""")

_INLINE = textwrap.dedent("""
    from accelerate import Accelerator
    from transformers import AdamW, get_linear_schedule_with_warmup


    def training_function(model, train_dataloader, num_epochs, gradient_accumulation_steps):
        accelerator = Accelerator()
        optimizer = AdamW(params=model.parameters(), lr=2e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        lr_scheduler = get_linear_schedule_with_warmup(
            optimizer=optimizer,
            num_warmup_steps=100,
            num_training_steps={total},{pin}
        )
        for epoch in range(num_epochs):
            model.train()
            for step, batch in enumerate(train_dataloader):
                loss = model(**batch).loss / gradient_accumulation_steps
                accelerator.backward(loss)
                if step % gradient_accumulation_steps == 0:
                    optimizer.step()
                    optimizer.zero_grad()
                {step_in}lr_scheduler.step()
""")

BAD_EXAMPLES = [
    # nanoT5 PR 8: the total in micro-batches while the step counter advances once per grad_acc batches
    _NANOT5.format(total="len(train_loader) * args.optim.epochs", pin="  # warning: PF335"),
    # accelerate issue 225 (v0.5.1 examples/nlp_example.py, held-out-32): the total inline in the schedule call,
    # the schedule stepped with the optimizer once per accumulation window
    _INLINE.format(total="len(train_dataloader) * num_epochs", pin="  # warning: PF335", step_in="    "),
]

GOOD_EXAMPLES = [
    # the fix: the total divided by the accumulation
    _NANOT5.format(total="len(train_loader) * args.optim.epochs // args.optim.grad_acc", pin=""),
    # tricky-correct: no accumulation window, the optimizer steps every batch
    textwrap.dedent("""
    import torch

    total_steps = len(train_loader) * num_epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-4, total_steps=total_steps)
    for epoch in range(num_epochs):
        for i, batch in enumerate(train_loader):
            loss = model(batch)
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            if i % log_every == 0:
                print(loss.item())
    """),
    # the accelerate 0.5.1 fix: the inline total divided by the accumulation
    _INLINE.format(total="len(train_dataloader) * num_epochs // gradient_accumulation_steps", pin="", step_in="    "),
    # tricky-correct: the inline micro-batch total with the schedule stepped on every batch, outside the window
    _INLINE.format(total="len(train_dataloader) * num_epochs", pin="", step_in=""),
]
