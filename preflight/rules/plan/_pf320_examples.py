"""PF320 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_CLM = textwrap.dedent("""
    # --- run_clm.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        model.train()
        for step, batch in enumerate(train_dataloader):
            loss = model(**batch).loss / 8
            accelerator.backward(loss){pin}
            if step % 8 == 0 or step == len(train_dataloader) - 1:
                optimizer.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes {procs} run_clm.py
""")

BAD_EXAMPLES = [
    # held-out-27 (accelerate issue 192): the no_trainer loop of accelerate 0.5 on 4 processes
    _CLM.format(pin="  # warning: PF320", procs=4),
    # raw DDP under torchrun, a GradScaler stepping the optimizer every 4th batch
    textwrap.dedent("""
    # --- train.py
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = DDP(build().cuda(), device_ids=[local_rank])
    scaler = torch.cuda.amp.GradScaler()
    for i, (x, y) in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = criterion(model(x.cuda()), y.cuda()) / 4
        scaler.scale(loss).backward()  # warning: PF320
        if (i + 1) % 4 == 0:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
    # --- launch
    torchrun --nproc_per_node 8 train.py
    """),
]

GOOD_EXAMPLES = [
    # one process: nothing to all-reduce
    _CLM.format(pin="", procs=1),
    # tricky-correct (held-out-36, transformers PR 17046's no_trainer script): the modulo divides by
    # `gradient_accumulation_steps = 1`, so the optimizer steps on every batch: no accumulation window
    textwrap.dedent("""
    # --- run_clm.py
    from accelerate import Accelerator

    gradient_accumulation_steps = 1
    accelerator = Accelerator()
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for step, batch in enumerate(train_dataloader):
        loss = model(**batch).loss / gradient_accumulation_steps
        accelerator.backward(loss)
        if step % gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
            optimizer.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 run_clm.py
    """),
    # the fix: the accumulating micro-batches under model.no_sync()
    textwrap.dedent("""
    # --- run_clm.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for step, batch in enumerate(train_dataloader):
        if step % 8 == 0:
            accelerator.backward(model(**batch).loss / 8)
            optimizer.step()
            optimizer.zero_grad()
        else:
            with model.no_sync():
                accelerator.backward(model(**batch).loss / 8)
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 run_clm.py
    """),
    # tricky-correct: the optimizer steps on every pass (no accumulation); a modulo test that only logs
    textwrap.dedent("""
    # --- train.py
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = DDP(build().cuda())
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if i % 100 == 0:
            print(loss.item())
    # --- launch
    torchrun --nproc_per_node 8 train.py
    """),
    # tricky-correct: accelerate's own accumulation decides the synchronisation
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, batch in enumerate(loader):
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --num_processes 4 train.py
    """),
]
