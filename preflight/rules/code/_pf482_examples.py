"""PF482 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import get_cosine_schedule_with_warmup


    def main(args, model, train_dataloader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        lr_scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=500, num_training_steps=20000)
        model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
            model, optimizer, train_dataloader, lr_scheduler)
        step = 0
        if args.resume_from_checkpoint:
    {resume}
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            step += 1
            if step % 1000 == 0:
                accelerator.save_state(f"out/step_{{step}}")
""")

BAD_EXAMPLES = [
    # accelerate issue 1673
    _TEMPLATE.format(resume="        model.load_checkpoint(args.resume_from_checkpoint)  # warning: PF482"),
]

GOOD_EXAMPLES = [
    # the fix
    _TEMPLATE.format(resume="        accelerator.load_state(args.resume_from_checkpoint)"),
    # tricky: the engine checkpoint plus the scheduler's own state restored by hand
    _TEMPLATE.format(resume="        model.load_checkpoint(args.resume_from_checkpoint)\n"
                            '        lr_scheduler.load_state_dict(torch.load(f"{args.resume_from_checkpoint}/scheduler.bin"))'),
]
