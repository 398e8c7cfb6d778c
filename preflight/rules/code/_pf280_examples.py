"""PF280 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # AnimaLoraStudio PR 305's shape: zero_grad only in the step branch (the tail leaks on)
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.AdamW(network.parameters(), lr=1e-4)
    for epoch in range(20):
        network.train()
        for batch_idx, batch in enumerate(loader):
            loss = torch.nn.functional.mse_loss(network(batch["x"]), batch["y"]) / grad_accum
            loss.backward()
            if (batch_idx + 1) % grad_accum == 0:  # note: PF280
                torch.nn.utils.clip_grad_norm_(network.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
"""),
    # the `i % k == k - 1` spelling, a GradScaler, in a function
    textwrap.dedent("""
    def train_epoch(model, loader, optimizer, scaler, accum):
        optimizer.zero_grad()
        for i, (x, y) in enumerate(loader):
            with torch.autocast("cuda"):
                loss = model(x, y) / accum
            scaler.scale(loss).backward()
            if i % accum == accum - 1:  # note: PF280
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: an `or` clause for the last batch
    textwrap.dedent("""
    for epoch in range(20):
        n = len(loader)
        for batch_idx, batch in enumerate(loader):
            loss = network(batch).mean() / grad_accum
            loss.backward()
            if (batch_idx + 1) % grad_accum == 0 or batch_idx + 1 == n:
                optimizer.step()
                optimizer.zero_grad()
"""),
    # tricky: a flush after the loop; a "last batch" flag; a global step that carries over
    # the epochs; a window of 1 at every call site (no accumulation); every batch steps
    # (`% log_every` guards only logging)
    textwrap.dedent("""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    args = parser.parse_args()

    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            model(batch).mean().backward()
            if (step + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()
        if (step + 1) % accum != 0:
            optimizer.step()
            optimizer.zero_grad()

    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            is_last = step == num_batches - 1
            model(batch).mean().backward()
            if (step + 1) % accum == 0 or is_last:
                optimizer.step()
                optimizer.zero_grad()

    global_step = 0
    for epoch in range(epochs):
        for batch in loader:
            model(batch).mean().backward()
            global_step += 1
            if global_step % accum == 0:
                optimizer.step()
                optimizer.zero_grad()

    def train(loader, gradient_accumulation_steps=1):
        for epoch in range(3):
            for step, batch in enumerate(loader):
                (model(**batch).loss / gradient_accumulation_steps).backward()
                if (step + 1) % gradient_accumulation_steps == 0:
                    optimizer.step()
                    optimizer.zero_grad()

    train(train_loader, gradient_accumulation_steps=1)
    train(train_loader, gradient_accumulation_steps=args.gradient_accumulation_steps)

    for epoch in range(epochs):
        for i, batch in enumerate(loader):
            optimizer.zero_grad()
            model(batch).mean().backward()
            optimizer.step()
            if (i + 1) % log_every == 0:
                print(i)
        scheduler.step()
"""),
]
