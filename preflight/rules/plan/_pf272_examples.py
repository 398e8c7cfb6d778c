"""PF272 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF272_BAD = [
    # accelerate issue 2109's shape: the no_trainer example's epoch loss, 8 processes, never reduced
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(log_with="wandb")
    accelerator.init_trackers("clm_no_trainer")
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        total_loss = 0
        for batch in train_dataloader:
            loss = model(**batch).loss
            total_loss += loss.detach().float()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.log({"train_loss": total_loss.item() / len(train_dataloader), "epoch": epoch})  # warning: PF272
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
"""),
]

PF272_GOOD = [
    # the fix: reduced across processes before it is logged
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(log_with="wandb")
    accelerator.init_trackers("clm_no_trainer")
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        total_loss = 0
        for batch in train_dataloader:
            loss = model(**batch).loss
            total_loss += loss.detach().float()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        epoch_loss = accelerator.reduce(total_loss, reduction="mean") / len(train_dataloader)
        accelerator.log({"train_loss": epoch_loss.item(), "epoch": epoch})
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
"""),
    # tricky-correct: one process holds the whole epoch
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(log_with="wandb")
    accelerator.init_trackers("one_process")
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    total_loss = 0
    for batch in train_dataloader:
        loss = model(**batch).loss
        total_loss += loss.detach().float()
        accelerator.backward(loss)
        optimizer.step()
    accelerator.log({"train_loss": total_loss.item() / len(train_dataloader)})
    # --- launch
    accelerate launch --num_processes 1 train.py
"""),
    # tricky-correct: the train total gathered in place; an evaluation key is not the training shard
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(log_with="wandb")
    accelerator.init_trackers("gathered")
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    total_loss = 0
    eval_loss = 0
    for batch in train_dataloader:
        loss = model(**batch).loss
        total_loss += loss.detach().float()
        eval_loss += loss.detach().float()
        accelerator.backward(loss)
        optimizer.step()
    total_loss = accelerator.gather(total_loss).sum()
    accelerator.log({"train_loss": total_loss.item() / len(train_dataloader),
                     "eval_loss": eval_loss / len(train_dataloader)})
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
"""),
]
