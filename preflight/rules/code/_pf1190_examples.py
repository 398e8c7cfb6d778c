"""PF1190 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# NVIDIA-NeMo/Automodel PR 2468's shape: a micro-batch with nothing to learn from is skipped per rank
_LOOP = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    def main(loader, resume_step=0):
        dist.init_process_group("nccl")
        rank = dist.get_rank()
        torch.cuda.set_device(rank)
        model = DDP(nn.Linear(128, 128).cuda(), device_ids=[rank])
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for step, (x, mask) in enumerate(loader):
            x, mask = x.cuda(), mask.cuda()
    {before}        out = model(x)
            loss = ((out - x) ** 2)[mask].mean()
    {after}        opt.zero_grad()
            loss.backward()
            opt.step()
""")


def _case(before: str = "", after: str = "") -> str:
    return _LOOP.format(before=before, after=after)


BAD_EXAMPLES = [
    # Automodel PR 2468: a batch with no valid position is skipped on this rank only
    _case(before="        if mask.sum() == 0:  # warning: PF1190\n            continue\n"),
    # the NaN-loss skip, decided per rank after the forward
    _case(after="        if not torch.isfinite(loss):  # warning: PF1190\n"
                "            print(f'rank {rank}: non-finite loss, skipping')\n            continue\n"),
]

_ACCELERATE = textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, loader, epochs=3):
        accelerator = Accelerator()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, opt, loader = accelerator.prepare(model, opt, loader)
        for epoch in range(epochs):
            for batch in loader:
                out = model(**batch)
                loss = out.loss
    {skip}            accelerator.backward(loss)
                opt.step()
                opt.zero_grad()
""")

BAD_EXAMPLES.append(
    # the NaN skip under accelerate: prepare wraps the model in DDP in a multi-process launch
    _ACCELERATE.format(skip="            if torch.isnan(loss):  # warning: PF1190\n                continue\n"))

GOOD_EXAMPLES = [
    # accelerate: the ranks agree through a gathered flag
    _ACCELERATE.format(skip="            nan = accelerator.gather(torch.isnan(loss).float())\n"
                            "            if nan.any():\n                continue\n"),
    # the fix of PR 2468: every rank agrees before skipping
    _case(before="        has_valid = (mask.sum() > 0).int()\n"
                 "        dist.all_reduce(has_valid, op=dist.ReduceOp.MIN)\n"
                 "        if has_valid.item() == 0:\n            continue\n"),
    # tricky (Hzfinfdu/Diffusion-BERT DDP_main.py): every rank's loss gathered before the NaN skip
    _case(after="        loss_list = [torch.zeros_like(loss) for _ in range(dist.get_world_size())]\n"
                "        dist.all_gather(loss_list, loss)\n"
                "        if torch.stack(loss_list).isnan().any():\n            continue\n"),
    # tricky (myrtle.ai caiman-asr): the NaN test is a helper that all-reduces inside
    _case(after="        if is_loss_nan(loss, num_gpus=8):\n            continue\n")
    .replace("def main(loader, resume_step=0):",
             "def is_loss_nan(loss, num_gpus):\n"
             "    flag = torch.isnan(loss).int()\n"
             "    dist.all_reduce(flag)\n"
             "    return flag.item() > 0\n\n\n"
             "def main(loader, resume_step=0):"),
    # tricky: resuming past done steps is the same on every rank
    _case(before="        if step < resume_step:\n            continue\n"),
    # tricky: the skip comes after the backward (logging only)
    _case(after="        loss.backward()\n        if not torch.isfinite(loss):\n            continue\n"),
    # tricky: the loss is zeroed, the backward (and its all-reduce) still runs on every rank
    _case(after="        if not torch.isfinite(loss):\n            loss = out.sum() * 0.0\n"),
    # tricky: no DDP in this function (single-process training)
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def main(loader):
        model = nn.Linear(128, 128).cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for x, mask in loader:
            if mask.sum() == 0:
                continue
            loss = ((model(x.cuda()) - x.cuda()) ** 2)[mask.cuda()].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
]
