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

BAD_EXAMPLES = [
    # nanoT5 PR 8: the total in micro-batches while the step counter advances once per grad_acc batches
    _NANOT5.format(total="len(train_loader) * args.optim.epochs", pin="  # warning: PF335"),
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
]
