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
]
