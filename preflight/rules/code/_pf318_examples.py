"""PF318 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    import os

    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    completed_steps, starting_epoch, resume_step = 0, 0, None
    if args.resume_from_checkpoint:
        accelerator.load_state(args.resume_from_checkpoint)
        name = os.path.splitext(os.path.basename(args.resume_from_checkpoint))[0]
    {restore}

    for epoch in range(starting_epoch, args.num_train_epochs):
        loader = train_dataloader
        if epoch == starting_epoch and resume_step is not None:
            loader = accelerator.skip_first_batches(train_dataloader, resume_step)
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                completed_steps += 1
                if completed_steps % args.checkpointing_steps == 0:
                    accelerator.save_state(f"step_{{completed_steps}}")
""")

_BUG = """resume_step = int(name.replace("step_", "")) * args.gradient_accumulation_steps
        starting_epoch = resume_step // len(train_dataloader)
        resume_step -= starting_epoch * len(train_dataloader)
        completed_steps = resume_step  # warning: PF318"""



def _job(restore: str) -> str:
    """The resume block's statements (one level, each line stripped) under the ``if``."""
    return _JOB.format(restore="\n".join("    " + line.strip() for line in restore.splitlines()))


PF318_BAD = [
    # held-out-27 (transformers issue 24186, run_clm_no_trainer's resume code)
    _job(_BUG),
    # a plain loop with a manual window: the counter is incremented next to optimizer.step()
    textwrap.dedent("""
    def resume(ckpt, accum_steps):
        state = torch.load(ckpt)
        batches_done = state["step"] * accum_steps
        global_step = batches_done  # warning: PF318
        return global_step


    def train(model, optimizer, loader, accum_steps, global_step):
        for i, batch in enumerate(loader):
            (model(batch) / accum_steps).backward()
            if (i + 1) % accum_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
                global_step += 1
    """),
]

PF318_GOOD = [
    # the transformers examples after the fix: divided back before the epochs are subtracted
    _job("""    resume_step = int(name.replace("step_", "")) * args.gradient_accumulation_steps
        starting_epoch = resume_step // len(train_dataloader)
        completed_steps = resume_step // args.gradient_accumulation_steps
        resume_step -= starting_epoch * len(train_dataloader)"""),
    # the held-out-27 twin: the counter from the checkpoint's step number, the batches derived from it
    _job("""    completed_steps = int(name.replace("step_", ""))
        resume_step = completed_steps * args.gradient_accumulation_steps
        starting_epoch = resume_step // len(train_dataloader)
        resume_step -= starting_epoch * len(train_dataloader)"""),
    # tricky-correct: the resume point is already an optimizer step (no accumulation factor), or the batch
    # count is rebound to a step count before the copy
    _job("""    resume_step = int(name.replace("step_", ""))
        completed_steps = resume_step"""),
    _job("""    resume_step = int(name.replace("step_", "")) * args.gradient_accumulation_steps
        resume_step = resume_step // args.gradient_accumulation_steps
        completed_steps = resume_step"""),
]
