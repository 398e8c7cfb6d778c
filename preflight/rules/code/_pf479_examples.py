"""PF479 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import torch
    import torchvision
    from accelerate import Accelerator


    def main(train_loader, test_loader, epochs=10):
        accelerator = Accelerator()
        model = torchvision.models.resnet50(num_classes=100)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
        for epoch in range(epochs):
            model.train()
            for image, target in train_loader:
                loss = torch.nn.functional.cross_entropy(model(image), target)
                optimizer.zero_grad()
                accelerator.backward(loss)
                optimizer.step()
            model.eval()
            with torch.no_grad():
                if accelerator.is_main_process:
    {before}                for image, target in test_loader:
                        pred = {forward}(image.to(accelerator.device)){pin}
                        accelerator.print((pred.argmax(1) == target.to(accelerator.device)).float().mean())
            accelerator.wait_for_everyone()
""")


def _case(forward: str = "model", pin: str = "", before: str = "") -> str:
    return _TEMPLATE.format(forward=forward, pin=pin, before=before)


_HELPER = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    def evaluate(dataloader, device, model):
    {unwrap}    model.eval()
        correct = total = 0
        with torch.no_grad():
            for x, y in dataloader:
                pred = model(x.to(device)).argmax(1)
                correct += (pred == y.to(device)).sum().item()
                total += y.numel()
        return correct / total


    def run(rank, world_size, train_loader, valid_loader):
        dist.init_process_group("nccl", rank=rank, world_size=world_size)
        torch.cuda.set_device(rank)
        model = nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 10)).to(rank)
        model = DDP(model, device_ids=[rank])
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(100):
            model.train()
            for x, y in train_loader:
                loss = nn.functional.cross_entropy(model(x.to(rank)), y.to(rank))
                opt.zero_grad()
                loss.backward()
                opt.step()
            if {guard}:
                val_acc = evaluate(valid_loader, rank, {arg}){pin}
                print(epoch, val_acc)
            dist.barrier()
""")


def _helper(arg: str = "model", pin: str = "", unwrap: str = "", guard: str = "rank == 0") -> str:
    return _HELPER.format(arg=arg, pin=pin, unwrap=unwrap, guard=guard)


# open_clip issue 1121 / PR 1155: the other ranks return before the helper's forward
_EARLY_RETURN = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    def is_master(args):
        return args.rank == 0


    def evaluate(model, data, epoch, args):
        metrics = {{}}
        if not is_master(args):
            return metrics
        model.eval()
        with torch.no_grad():
            for images, texts in data["val"]:
                a, b = model(images, texts)
                metrics["val_score"] = (a * b).sum(-1).mean().item()
        return metrics


    def main(args, data, tower):
        dist.init_process_group("nccl")
        torch.cuda.set_device(args.local_rank)
        model = DDP(tower.cuda(), device_ids=[args.local_rank])
        opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
        for epoch in range(args.epochs):
            model.train()
            for images, texts in data["train"]:
                a, b = model(images, texts)
                loss = -(a * b).sum(-1).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            evaluate({arg}, data, epoch + 1, args){pin}
            dist.barrier()
""")


BAD_EXAMPLES = [
    # accelerate issue 2081
    _case(pin="  # warning: PF479"),
    # torch DDP, rank-0 evaluation
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(model, loader, val_batch, rank):
        model = DDP(model.to(rank), device_ids=[rank])
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        if dist.get_rank() == 0:
            with torch.no_grad():
                print(model(val_batch).mean())  # warning: PF479
"""),
    # dgl PR 4385, jpata/particleflow PR 233: rank-0 evaluation through a helper of the same file
    _helper(pin="  # warning: PF479"),
    # FareedKhan-dev/train-llm-from-scratch PR 32: final evaluation on the main process, flag bound once
    _helper(guard="is_main", pin="  # warning: PF479").replace(
        "    dist.init_process_group(\"nccl\", rank=rank, world_size=world_size)\n",
        "    dist.init_process_group(\"nccl\", rank=rank, world_size=world_size)\n    is_main = rank == 0\n"),
    # open_clip issue 1121: the helper's other ranks return before its forward
    _EARLY_RETURN.format(arg="model", pin="  # warning: PF479"),
]
GOOD_EXAMPLES = [
    # the fix: the bare module on the main process
    _case(forward="accelerator.unwrap_model(model)"),
    _case(forward="model.module"),
    # tricky: the main process alone runs a bare module bound to another name first
    _case(forward="bare", before="                bare = accelerator.unwrap_model(model)\n"),
    # tricky: every process evaluates through the wrapped model, the main one only prints
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def evaluate(model, loader):
        accelerator = Accelerator()
        model, loader = accelerator.prepare(model, loader)
        correct = 0
        with torch.no_grad():
            for x, y in loader:
                pred, y = accelerator.gather_for_metrics((model(x).argmax(1), y))
                correct += (pred == y).sum().item()
        if accelerator.is_main_process:
            print(correct)
"""),
    # the fix of dgl PR 4385: the bare module on the main process
    _helper(arg="model.module"),
    # tricky: the helper unwraps the model itself before its forward
    _helper(unwrap="    model = model.module if hasattr(model, \"module\") else model\n"),
    # tricky (transformers' legacy run_swag.py): the rank-0 branch evaluates in single-process runs only
    _helper(guard="rank in [-1, 0] and rank == -1"),
    # tricky: every rank evaluates through the wrapped model
    _helper(guard="epoch % 5 == 0"),
    # the fix of open_clip PR 1155: the bare module goes to the main-process-only helper
    _EARLY_RETURN.format(arg="model.module", pin=""),
]
