"""PF333 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_DIM = textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")
    optimizer = torch.optim.AdamW(nnet.parameters(), lr=2e-4, weight_decay=0.03)
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(s, 5000) / 5000){pin}
    nnet, optimizer, train_loader = accelerator.prepare(nnet, optimizer, train_loader){register}

    step = 0
    if os.path.isdir("ckpts") and os.listdir("ckpts"):
        step = max(int(d.split(".")[0]) for d in os.listdir("ckpts"))
        accelerator.load_state(os.path.join("ckpts", f"{{step}}.ckpt"))
    while step < 500000:
        for latents, labels in train_loader:
            loss = nnet(latents, labels)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            lr_scheduler.step()
            step += 1
            if step % 25000 == 0:
                accelerator.save_state(os.path.join("ckpts", f"{{step}}.ckpt"))
""")

BAD_EXAMPLES = [
    # DiM-DiffusionMamba issue 5: the warmup LambdaLR is neither prepared nor registered; load_state
    # restores weights and optimizer, the warmup starts again at step 125000
    _DIM.format(pin="  # warning: PF333", register=""),
    # a transformers schedule in a function that resumes from the last checkpoint folder
    textwrap.dedent("""
    from accelerate import Accelerator
    from transformers import get_cosine_schedule_with_warmup


    def main(args, model, optimizer, loader):
        accelerator = Accelerator(gradient_accumulation_steps=4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        scheduler = get_cosine_schedule_with_warmup(optimizer, 500, 20000)  # warning: PF333
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
        accelerator.save_state("out/last")
    """),
]

GOOD_EXAMPLES = [
    # the fix: the scheduler registered for checkpointing (its steps stay the caller's)
    _DIM.format(pin="", register="\naccelerator.register_for_checkpointing(lr_scheduler)"),
    # tricky-correct: the scheduler is prepared, so save_state/load_state carry it
    textwrap.dedent("""
    from accelerate import Accelerator
    from transformers import get_scheduler

    accelerator = Accelerator()
    lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100, num_training_steps=10000)
    model, optimizer, loader, lr_scheduler = accelerator.prepare(model, optimizer, loader, lr_scheduler)
    if resume_dir:
        accelerator.load_state(resume_dir)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
    """),
    # tricky-correct: the script saves and loads the scheduler's state itself next to the Accelerate state
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10000, gamma=0.5)
    if resume_dir:
        accelerator.load_state(resume_dir)
        scheduler.load_state_dict(torch.load(f"{resume_dir}/scheduler.pt"))
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
    accelerator.save_state("ckpt")
    torch.save(scheduler.state_dict(), "ckpt/scheduler.pt")
    """),
    # tricky-correct: no load_state anywhere (save_state only exports; the run never resumes)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, s / 1000))
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
    accelerator.save_state("final")
    """),
]
