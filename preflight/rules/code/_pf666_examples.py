"""PF666 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_SPARSEML = textwrap.dedent("""
    import os

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(args, model, train_loader, optimizer, loss_fn, device):
        model.train()
        for inputs, labels in train_loader:
            loss = loss_fn(model(inputs.to(device)), labels.to(device))
            {scale}
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    def main(args, model, train_loader, loss_fn):
        dist.init_process_group(backend="nccl")
        args.world_size = dist.get_world_size()
        local_rank = int(os.environ["LOCAL_RANK"])
        torch.cuda.set_device(local_rank)
        model = DDP(model.cuda(), device_ids=[local_rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        train(args, model, train_loader, optimizer, loss_fn, torch.device("cuda", local_rank))
""")

PF666_BAD = [
    # sparseml PR 135 (held-out-32): "DDP averages gradients over the processes, undo it"
    _SPARSEML.format(scale="loss = loss * args.world_size  # warning: PF666"),
    # the in-place spelling with the process group's own count
    _SPARSEML.format(scale="loss *= dist.get_world_size()  # warning: PF666"),
]

_MAGFACE = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    def main(args, model, criterion, train_loader, local_rank):
        dist.init_process_group(backend="nccl")
        args.world_size = dist.get_world_size()
        model = DDP(model.cuda(local_rank), device_ids=[local_rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
        for input, target in train_loader:
            output, x_norm = model(input.cuda(local_rank), target)
            loss_id, loss_g, one_hot = criterion(output, target, x_norm)
            {loss}
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
""")

PF666_BAD.append(
    # MagFace 12 (held-out-33, in-sample): one term of the loss weighted by the number of GPUs
    _MAGFACE.format(loss="loss = loss_id + args.world_size * args.lambda_g * loss_g  # warning: PF666"))

PF666_GOOD = [
    # MagFace's fix: the regulariser weighted as in the single-process recipe
    _MAGFACE.format(loss="loss = loss_id + args.lambda_g * loss_g"),
    # tricky-correct: the world size scales a logged copy, not the loss given to backward
    _MAGFACE.format(loss="loss = loss_id + args.lambda_g * loss_g\n        logged_loss = loss_id.item() + args.world_size * loss_g.item()"),
    # the PR's fix: no scaling
    _SPARSEML.format(scale="pass"),
    # tricky-correct: a detached copy scaled for logging; the loss given to backward is not scaled
    _SPARSEML.format(scale="log_loss = loss.detach() * args.world_size"),
    # tricky-correct: a contrastive loss over all_gather'ed features, scaled to undo DDP's averaging of
    # gradients that reach each rank only through its own slice
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel as DDP


    def gather(x):
        out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(out, x)
        out[dist.get_rank()] = x
        return torch.cat(out)


    def train(model, loader, optimizer, world_size):
        model = DDP(model)
        for a, b in loader:
            za, zb = gather(model(a)), gather(model(b))
            logits = za @ zb.t()
            loss = F.cross_entropy(logits, torch.arange(len(logits), device=logits.device))
            loss = loss * world_size
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """),
    # tricky-correct: a token-sum loss divided by the token count all-reduced over the processes, times the world
    # size to undo DDP's averaging (open-instruct / OLMo-core's global normalisation)
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(model, loader, optimizer):
        model = DDP(model)
        for batch in loader:
            logits = model(batch["input_ids"])
            tokens = (batch["labels"] != -100).sum()
            dist.all_reduce(tokens)
            loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten(), reduction="sum") / tokens
            loss = loss * dist.get_world_size()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """),
]
