"""PF464 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate issue 685: load_state, then epoch 0 step 0 again
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def training_function(args, model, train_dataloader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
        for epoch in range(args.num_epochs):  # warning: PF464
            model.train()
            for step, batch in enumerate(train_dataloader):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
                if step % 100 == 0:
                    accelerator.save_state(f"{args.output_dir}/epoch_{epoch}_step_{step}")
"""),
]

GOOD_EXAMPLES = [
    # the fix: the epoch and step come back from the checkpoint's name
    textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator


    def training_function(args, model, train_dataloader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        starting_epoch, resume_step = 0, 0
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
            _, epoch_str, _, step_str = os.path.basename(args.resume_from_checkpoint).split("_")
            starting_epoch, resume_step = int(epoch_str), int(step_str) + 1
        for epoch in range(starting_epoch, args.num_epochs):
            model.train()
            loader = train_dataloader
            if epoch == starting_epoch and resume_step:
                loader = accelerator.skip_first_batches(train_dataloader, resume_step)
            for step, batch in enumerate(loader):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
                if step % 100 == 0:
                    accelerator.save_state(f"{args.output_dir}/epoch_{epoch}_step_{step}")
"""),
    # tricky-correct: finished epochs skipped inside a loop that starts at 0
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(args, model, loader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        start_epoch = 0
        if args.resume:
            accelerator.load_state(args.resume)
            start_epoch = int(args.resume.rsplit("_", 1)[-1]) + 1
        for epoch in range(args.epochs):
            if epoch < start_epoch:
                continue
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.save_state(f"ckpt/epoch_{epoch}")
"""),
    # tricky-correct: load_state initialises a new fine-tuning phase from a pretraining state (no resume)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def finetune(model, loader, pretrained_state):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        accelerator.load_state(pretrained_state)
        for epoch in range(3):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
    # tricky-correct: the epoch count is reduced by the epochs the checkpoint finished (accelerate's FSDP example)
    textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator


    def train(args, model, loader, num_epochs):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
            num_epochs -= int(os.path.basename(args.resume_from_checkpoint).replace("epoch_", ""))
        for epoch in range(num_epochs):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
]

BAD_EXAMPLES.append(
    # a script that resumes at its top level: the start variable and the batch skip are only ever 0/None
    textwrap.dedent("""
    import os

    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    first_epoch = 0
    skip = None
    if args.resume:
        accelerator.load_state(args.resume)
    for epoch in range(first_epoch, args.epochs):  # warning: PF464
        batches = loader
        if skip is not None and epoch == first_epoch:
            batches = accelerator.skip_first_batches(loader, skip)
        for batch in batches:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        accelerator.save_state(os.path.join("ckpt", f"epoch_{epoch}"))
"""))

GOOD_EXAMPLES.append(
    # tricky-correct: the same top-level script with the start epoch read back from the checkpoint's name
    textwrap.dedent("""
    import os

    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
    first_epoch = 0
    if args.resume:
        accelerator.load_state(args.resume)
        first_epoch = int(os.path.basename(args.resume).split("_")[1]) + 1
    for epoch in range(first_epoch, args.epochs):
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        accelerator.save_state(os.path.join("ckpt", f"epoch_{epoch}"))
"""))
