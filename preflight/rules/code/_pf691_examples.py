"""PF691 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# the shape of the reports (LoongForge PR 163, ClassyVision PR 706): the forward of every micro-batch runs
# first, only the backward of the accumulating micro-batches is put under no_sync
_LOOP = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = DDP(build_model().to(rank), device_ids=[rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

    for step, (x, y) in enumerate(loader):
        {forward}
        if (step + 1) % accum != 0:
            with model.no_sync():
                {inside}
        else:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
""")

BAD_EXAMPLES = [
    _LOOP.format(forward="loss = torch.nn.functional.cross_entropy(model(x), y) / accum",
                 inside="loss.backward()  # warning: PF691"),
    # a trainer method: the context is chosen by a conditional expression, the loss scaled for AMP
    textwrap.dedent("""
    import contextlib
    from torch.nn.parallel import DistributedDataParallel


    class Trainer:
        def __init__(self, model, optimizer, scaler, local_rank):
            self.model = DistributedDataParallel(model, device_ids=[local_rank])
            self.optimizer, self.scaler = optimizer, scaler

        def micro_step(self, batch, last):
            with torch.autocast("cuda", dtype=torch.float16):
                loss = self.model(**batch).loss / self.accum
            sync = self.model.no_sync() if not last else contextlib.nullcontext()
            with sync:
                self.scaler.scale(loss).backward()  # warning: PF691
            return loss.item()
    """),
    # Accelerate: accelerator.no_sync(model) around accelerator.backward only
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for i, batch in enumerate(loader):
        loss = model(**batch).loss / accum
        if (i + 1) % accum:
            with accelerator.no_sync(model):
                accelerator.backward(loss)  # warning: PF691
            continue
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    """),
]

GOOD_EXAMPLES = [
    # the fix: forward and backward inside the block
    _LOOP.format(forward="pass",
                 inside="loss = torch.nn.functional.cross_entropy(model(x), y) / accum\n"
                        "            loss.backward()"),
    # tricky: the block calls a helper that runs the forward
    _LOOP.format(forward="pass", inside="loss = compute_loss(model, x, y)\n            loss.backward()"),
    # tricky: FSDP decides in its post-backward hooks, so no_sync around the backward alone works there
    textwrap.dedent("""
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    model = FSDP(build_model())
    for step, batch in enumerate(loader):
        loss = model(batch).sum() / accum
        if (step + 1) % accum != 0:
            with model.no_sync():
                loss.backward()
        else:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """),
    # tricky: the forward is entered under the context bound to a name, the backward after it
    textwrap.dedent("""
    import contextlib
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = DDP(net, device_ids=[rank])
    for step, batch in enumerate(loader):
        ctx = model.no_sync if (step + 1) % accum else contextlib.nullcontext
        with ctx():
            loss = model(batch).mean() / accum
            loss.backward()
        if (step + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
    """),
]
