"""PF273 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF273_BAD = [
    # accelerate issue 639's shape: the last micro-batch's loss divided again for TensorBoard
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.tensorboard import SummaryWriter

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    writer = SummaryWriter("runs/t5")
    global_step = 0
    for step, batch in enumerate(train_dataloader):
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            global_step += 1
            writer.add_scalar("loss_train", loss.item() / args.gradient_accumulation_steps, global_step)  # warning: PF273
"""),
]

PF273_GOOD = [
    # the fix: the window's losses, each divided once, summed and logged
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.tensorboard import SummaryWriter

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    writer = SummaryWriter("runs/t5")
    window_loss = 0.0
    for step, batch in enumerate(train_dataloader):
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            window_loss += loss.item() / args.gradient_accumulation_steps
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            writer.add_scalar("loss_train", window_loss, step)
            window_loss = 0.0
"""),
    # tricky-correct: a hand-divided loss (no accelerate accumulate), logged scaled back
    textwrap.dedent("""
    def train(accelerator, model, loader, optimizer, accum_steps, writer):
        for step, batch in enumerate(loader):
            with accelerator.accumulate(model):
                loss = model(**batch).loss
                loss = loss / accum_steps
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            writer.add_scalar("loss", loss.item() / accum_steps, step)
            writer.add_scalar("tokens_per_step", batch_tokens / accum_steps, step)
"""),
]
