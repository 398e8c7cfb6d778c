"""PF251 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # min-dalle PR 24 and many public evaluation functions: no_grad() on its own line
    textwrap.dedent("""
    import torch

    def evaluate(model, loader):
        model.eval()
        torch.no_grad()  # warning: PF251
        correct = 0
        for x, y in loader:
            correct += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()  # warning: PF110
        return correct
    """),
    # Accelerate: accumulate() called, never entered
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.accumulate(model)  # warning: PF251
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    """),
    # autocast imported by name and called as a statement; DDP no_sync likewise
    textwrap.dedent("""
    import torch
    from torch.cuda.amp import autocast

    for step, (x, y) in enumerate(loader):
        autocast()  # warning: PF251
        if (step + 1) % accum != 0:
            ddp_model.no_sync()  # warning: PF251
        loss = criterion(ddp_model(x), y) / accum
        scaler.scale(loss).backward()
    """),
    # Transformers / PEFT: preprocessing and a reference forward meant to run under context managers
    textwrap.dedent("""
    import torch

    from peft import get_peft_model

    training_args.main_process_first(desc="tokenize")  # warning: PF251
    train_ds = raw.map(tokenize, batched=True)
    with torch.no_grad():
        model.disable_adapter()  # warning: PF251
        ref_logits = model(**batch).logits
    """),
]

GOOD_EXAMPLES = [
    # entered with `with`
    textwrap.dedent("""
    import torch

    model.eval()
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
        preds = model(x)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
    """),
    # tricky: a decorator, a kept object, a conditional context, a returned one
    textwrap.dedent("""
    import contextlib
    import torch

    @torch.no_grad()
    def predict(model, x):
        return model(x)

    ctx = torch.autocast("cuda") if use_amp else contextlib.nullcontext()
    with ctx:
        out = model(x)

    def sync_context(model, last):
        return contextlib.nullcontext() if last else model.no_sync()
    """),
    # tricky: set_grad_enabled works as a plain call; joins of strings, paths and threads
    textwrap.dedent("""
    import os
    import torch

    torch.set_grad_enabled(False)
    ", ".join(names)
    os.path.join(root, "ckpt")
    worker.join()
    """),
    # tricky: a model whose disable/enable adapter pair are plain methods (not PEFT's context manager)
    textwrap.dedent("""
    import torch

    def get_reference_model(model):
        model.disable_adapter()
        return model

    def get_student_model(model):
        model.enable_adapter()
        return model
    """),
]
