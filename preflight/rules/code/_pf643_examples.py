"""PF643 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF643_BAD = [
    # held-out-30 (transformers issue 1563): run_glue on 2.1.1, the clip after every accumulated backward
    textwrap.dedent("""
    import torch
    from transformers import AdamW

    optimizer = AdamW(model.parameters(), lr=args.learning_rate, eps=args.adam_epsilon)
    model.train()
    for _ in range(int(args.num_train_epochs)):
        for step, batch in enumerate(train_dataloader):
            outputs = model(input_ids=batch[0], attention_mask=batch[1], labels=batch[3])
            loss = outputs[0] / args.gradient_accumulation_steps
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)  # warning: PF643
            if (step + 1) % args.gradient_accumulation_steps == 0:
                optimizer.step()
                scheduler.step()
                model.zero_grad()
"""),
    # held-out-30 (GSM issue 22): an iter_size window, the clip under an option test
    textwrap.dedent("""
    import torch
    from torch.nn.utils import clip_grad_norm_

    optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    for i, (inputs, target) in enumerate(train_loader):
        loss = criterion(model(inputs), target) / iter_size
        loss.backward()
        if clip_gradient is not None:
            clip_grad_norm_(model.parameters(), clip_gradient)  # warning: PF643
        if (i + 1) % iter_size == 0:
            optimizer.step()
            optimizer.zero_grad()
"""),
]

PF643_GOOD = [
    # the fix (transformers PR 1580): clip inside the window, before the step
    textwrap.dedent("""
    import torch
    from transformers import AdamW

    optimizer = AdamW(model.parameters(), lr=args.learning_rate, eps=args.adam_epsilon)
    model.train()
    for step, batch in enumerate(train_dataloader):
        loss = model(**batch)[0] / args.gradient_accumulation_steps
        loss.backward()
        if (step + 1) % args.gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
            model.zero_grad()
"""),
    # tricky-correct: no accumulation (the step every batch, a logging window elsewhere)
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if i % 100 == 0:
            print(i)
"""),
    # tricky-correct: AMP, the clip after unscale_ inside the window
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1).cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    scaler = torch.cuda.amp.GradScaler()
    for i, (x, y) in enumerate(loader):
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), y) / 4
        scaler.scale(loss).backward()
        if (i + 1) % 4 == 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
"""),
]
