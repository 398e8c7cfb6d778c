"""PF425 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF425_BAD = [
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.unscale_(opt.optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)  # error: PF425
        scaler.update()
        opt.zero_grad()
"""),
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.unscale_gradients()
        accelerator.clip_grad_norm_(model.parameters(), 1.0)  # error: PF425
        optimizer.step()
        optimizer.zero_grad()
"""),
    # the Accelerator's own scaler unscaled by hand, then Accelerate's clip unscales again
    # (a shape the rule missed when probed while hunting)
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.scaler.unscale_(optimizer)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)  # error: PF425
        optimizer.step()
        optimizer.zero_grad()
"""),
]

PF425_GOOD = [
    textwrap.dedent("""
    import torch

    scaler = torch.cuda.amp.GradScaler()
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.unscale_(opt.optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt.optimizer)
        scaler.update()
        opt.zero_grad()
"""),
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
"""),
]
