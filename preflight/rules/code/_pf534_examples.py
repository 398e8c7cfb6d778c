"""PF534 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF534_BAD = [
    # the Accelerator.accumulate docstring before accelerate PR 1211: the block around the batch loop
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=2)
    model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)
    with accelerator.accumulate(model):  # error: PF534
        for input, output in dataloader:
            outputs = model(input)
            loss = loss_func(outputs)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the accelerator comes from the caller; the block wraps the epoch loop and the batch loop
    """
def fit(accelerator, model, optimizer, scheduler, loader, epochs):
    model.train()
    with accelerator.accumulate(model):  # error: PF534
        for epoch in range(epochs):
            for step, batch in enumerate(loader):
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
""",
    # a window read from the command line, a while loop over an iterator
    textwrap.dedent("""
    import argparse
    from accelerate import Accelerator

    parser = argparse.ArgumentParser()
    parser.add_argument("--grad_accum", type=int, default=8)
    args = parser.parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.grad_accum, mixed_precision="bf16")
    model, opt, loader = accelerator.prepare(model, opt, loader)
    it = iter(loader)
    with accelerator.accumulate(model), accelerator.autocast():  # error: PF534
        while True:
            batch = next(it, None)
            if batch is None:
                break
            accelerator.backward(model(batch).mean())
            opt.step()
            opt.zero_grad()
"""),
]

PF534_BAD.append(
    # held-out-27 (accelerate PR 1817's report): the block entered once per window around a loop that draws the
    # window's micro-batches, the step after the loop, while the Accelerator has a window of 4 itself
    textwrap.dedent("""
    from accelerate import Accelerator

    gradient_accumulation_steps = 4
    accelerator = Accelerator(gradient_accumulation_steps=gradient_accumulation_steps)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    batches = iter(loader)
    for update in range(len(loader) // gradient_accumulation_steps):
        with accelerator.accumulate(model):  # error: PF534
            for _ in range(gradient_accumulation_steps):
                batch = next(batches)
                accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""))

PF534_GOOD = [
    # tricky-correct: the same window loop by hand with an Accelerator of window 1 (nothing counted twice)
    textwrap.dedent("""
    from accelerate import Accelerator

    accum = 4
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    batches = iter(loader)
    for update in range(len(loader) // accum):
        with accelerator.accumulate(model):
            for _ in range(accum):
                accelerator.backward(model(**next(batches)).loss / accum)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the fix: one block per batch
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=2)
    model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)
    for input, output in dataloader:
        with accelerator.accumulate(model):
            outputs = model(input)
            loss = loss_func(outputs)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: a loop over the chunks of one batch inside the block, the step after it
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            for chunk in batch["input_ids"].chunk(2):
                accelerator.backward(model(chunk).loss * len(chunk) / len(batch["input_ids"]))
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: a window of 1 says nothing is skipped
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=1)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    with accelerator.accumulate(model):
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # tricky-correct: the block holds an evaluation loop that never steps
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader, val_loader = accelerator.prepare(model, optimizer, loader, val_loader)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if accelerator.sync_gradients and accelerator.step % 100 == 0:
                model.eval()
                with torch.no_grad():
                    for val in val_loader:
                        accelerator.print(model(**val).loss.item())
                model.train()
"""),
    # tricky-correct (a real trainer's shape): nothing is prepared, so the plain optimizer steps on every
    # batch whatever sync_gradients says; the block only makes accelerator.backward divide the loss
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=10)


    def train_model(model, shards, epochs, device):
        optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model.to(device)
        for epoch in range(epochs):
            with accelerator.accumulate(model):
                for shard in shards:
                    for batch in shard:
                        optim.zero_grad()
                        loss = model(batch.to(device)).loss.mean()
                        accelerator.backward(loss)
                        optim.step()
"""),
]
