"""PF126 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF126_BAD = [
    # pytorch/examples#1078 shape: the DDP tutorial resumes its snapshot on every rank
    textwrap.dedent("""
    import os

    import torch
    import torch.nn.functional as F
    from torch.distributed import destroy_process_group, init_process_group
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Trainer:
        def __init__(self, model, train_data, optimizer, snapshot_path):
            self.gpu_id = int(os.environ["LOCAL_RANK"])
            self.model = model.to(self.gpu_id)
            self.train_data = train_data
            self.optimizer = optimizer
            self.epochs_run = 0
            self.snapshot_path = snapshot_path
            if os.path.exists(snapshot_path):
                snapshot = torch.load(snapshot_path)  # warning: PF126
                self.model.load_state_dict(snapshot["MODEL_STATE"])
                self.epochs_run = snapshot["EPOCHS_RUN"]
            self.model = DDP(self.model, device_ids=[self.gpu_id])

        def train(self, max_epochs):
            for epoch in range(self.epochs_run, max_epochs):
                self.train_data.sampler.set_epoch(epoch)
                for source, targets in self.train_data:
                    source, targets = source.to(self.gpu_id), targets.to(self.gpu_id)
                    self.optimizer.zero_grad()
                    F.cross_entropy(self.model(source), targets).backward()
                    self.optimizer.step()
                if self.gpu_id == 0:
                    snapshot = {"MODEL_STATE": self.model.module.state_dict(), "EPOCHS_RUN": epoch}
                    torch.save(snapshot, self.snapshot_path)


    def main(model, loader, optimizer):
        init_process_group(backend="nccl")
        Trainer(model, loader, optimizer, "snapshot.pt").train(100)
        destroy_process_group()
"""),
]

PF126_GOOD = [
    # the fix: map_location to the process's GPU
    textwrap.dedent("""
    import os

    import torch
    from torch.distributed import init_process_group
    from torch.nn.parallel import DistributedDataParallel as DDP


    def main(model, loader, optimizer, snapshot_path="snapshot.pt"):
        init_process_group(backend="nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        model = model.to(local_rank)
        if os.path.exists(snapshot_path):
            snapshot = torch.load(snapshot_path, map_location=f"cuda:{local_rank}")
            model.load_state_dict(snapshot["model"])
        model = DDP(model, device_ids=[local_rank])
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x.to(local_rank)), y.to(local_rank)).backward()
            optimizer.step()
        if local_rank == 0:
            torch.save({"model": model.module.state_dict()}, snapshot_path)
"""),
    # tricky-correct: pretrained weights (saved on the CPU) loaded plainly; the resume loaded on rank 0
    # only; the ImageNet example's CPU branch beside the per-GPU branch
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    import torchvision


    def main(args, rank):
        dist.init_process_group("nccl")
        model = torchvision.models.resnet50()
        model.load_state_dict(torch.load(args.pretrained_weights))
        if rank == 0 and args.resume:
            state = torch.load(args.resume)
            model.load_state_dict(state["model"])
        if args.gpu is None:
            checkpoint = torch.load(args.checkpoint)
        else:
            checkpoint = torch.load(args.checkpoint, map_location=f"cuda:{args.gpu}")
        model.load_state_dict(checkpoint["model"])
        model = torch.nn.parallel.DistributedDataParallel(model.cuda(rank), device_ids=[rank])
        torch.save({"model": model.module.state_dict()}, args.checkpoint)
"""),
]
