"""PF624 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF624`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

# accelerate issue 1451's shape (complete_cv_example before the fix)
_LOOP = dedent("""
    import os

    import torch
    from accelerate import Accelerator


    def train(args, model, optimizer, train_dataloader, num_epochs):
        accelerator = Accelerator()
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        starting_epoch, resume_step = 0, None
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
            step = int(os.path.basename(args.resume_from_checkpoint).replace("step_", ""))
            starting_epoch, resume_step = divmod(step, len(train_dataloader))
        for epoch in range(starting_epoch, num_epochs):
            model.train()
            {body}
                loss = torch.nn.functional.cross_entropy(model(batch["x"]), batch["y"])
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
    """)

PF624_BAD = [
    _LOOP.format(body="if epoch == starting_epoch and resume_step is not None:\n"
                      "            train_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)"
                      "  # warning: PF624\n"
                      "        for step, batch in enumerate(train_dataloader):"),
    # open-instruct PR 681: a per-epoch name, but chosen on every epoch (resume_step is never cleared)
    _LOOP.format(body="if resume_step is not None:\n"
                      "            active_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)"
                      "  # warning: PF624\n"
                      "        else:\n"
                      "            active_dataloader = train_dataloader\n"
                      "        for step, batch in enumerate(active_dataloader):"),
]

PF624_GOOD = [
    # the fix of accelerate issue 1451
    _LOOP.format(body="active_dataloader = train_dataloader\n"
                      "        if epoch == starting_epoch and resume_step is not None:\n"
                      "            active_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)\n"
                      "        for step, batch in enumerate(active_dataloader):"),
    # tricky: skipped once before the epoch loop for a single resumed pass over a fresh name
    _LOOP.format(body="loader = train_dataloader if epoch != starting_epoch else "
                      "accelerator.skip_first_batches(train_dataloader, resume_step or 0)\n"
                      "        for step, batch in enumerate(loader):"),
    # tricky: distil-whisper's shape, the loader rebuilt at the top of every epoch
    _LOOP.format(body="train_dataloader = accelerator.prepare(torch.utils.data.DataLoader(args.dataset, batch_size=8))\n"
                      "        if resume_step is not None:\n"
                      "            train_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)\n"
                      "            resume_step = None\n"
                      "        for step, batch in enumerate(train_dataloader):"),
    # tricky: the resume step cleared after the first skip (the fix of open-instruct PR 681)
    _LOOP.format(body="active_dataloader = train_dataloader\n"
                      "        if resume_step:\n"
                      "            active_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)\n"
                      "            resume_step = 0\n"
                      "        for step, batch in enumerate(active_dataloader):"),
]
