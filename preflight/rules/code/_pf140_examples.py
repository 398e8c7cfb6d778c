"""PF140 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_LOOP = textwrap.dedent("""
    import os

    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    completed_steps = 0
    for epoch in range(args.num_train_epochs):
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            {counted}
            if isinstance(checkpointing_steps, int):
                if {test}:
                    accelerator.save_state(os.path.join(args.output_dir, f"step_{{completed_steps}}")){mark}
""")

_SYNCED = "if accelerator.sync_gradients:\n                completed_steps += 1"
_BAD = "  # warning: PF140"

PF140_BAD = [
    # transformers PR 33131: the run_clm_no_trainer.py checkpoint test before the fix
    _LOOP.format(counted=_SYNCED, test="completed_steps % checkpointing_steps == 0", mark=_BAD),
    # the test and the save inside a function's loop, save_model
    textwrap.dedent("""
    def train(accelerator, model, loader, optimizer, every):
        updates = 0
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                updates += 1
            if updates % every == 0 and updates > 0:
                accelerator.save_model(model, "out")  # warning: PF140
    """),
]

PF140_BAD.append(
    # a hand-written accumulation window (no accumulate block): the counter advances once per window
    textwrap.dedent("""
    for step, batch in enumerate(train_dataloader):
        loss = model(batch).loss / args.grad_accum_steps
        accelerator.backward(loss)
        if step % args.grad_accum_steps == 0 or step == len(train_dataloader) - 1:
            optimizer.step()
            optimizer.zero_grad()
            completed_steps += 1
        if isinstance(checkpointing_steps, int):
            if completed_steps % checkpointing_steps == 0:
                accelerator.save_state(f"step_{completed_steps}")  # warning: PF140
    """))

PF140_GOOD = [
    # the fix: the condition also tests sync_gradients
    _LOOP.format(counted=_SYNCED, test="completed_steps % checkpointing_steps == 0 and accelerator.sync_gradients",
                 mark=""),
    # the counter advances on every batch: the multiple holds on one micro-batch only
    _LOOP.format(counted="completed_steps += 1", test="completed_steps % checkpointing_steps == 0", mark=""),
    # tricky: the save under the sync block that increments the counter
    textwrap.dedent("""
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            completed_steps += 1
            if completed_steps % checkpointing_steps == 0:
                accelerator.save_state(f"step_{completed_steps}")
    """),
    # tricky: the loop skips the micro-steps before testing the multiple
    textwrap.dedent("""
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if not accelerator.sync_gradients:
            continue
        completed_steps += 1
        if completed_steps % checkpointing_steps == 0:
            accelerator.save_state(f"step_{completed_steps}")
    """),
    # tricky: no accumulation at all, sync_gradients holds on every batch
    textwrap.dedent("""
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
        if accelerator.sync_gradients:
            completed_steps += 1
        if completed_steps % checkpointing_steps == 0:
            accelerator.save_state(f"step_{completed_steps}")
    """),
    # tricky: an epoch counter's multiple outside the batch loop
    textwrap.dedent("""
    for epoch in range(epochs):
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                completed_steps += 1
        if epoch % 5 == 0:
            accelerator.save_state(f"epoch_{epoch}")
    """),
]
