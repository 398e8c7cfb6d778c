"""Examples for PF201 unsharded-distributed-loader and PF203 shuffle-with-sampler (PF202's are in
``_pf202_examples``; executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

import textwrap
from textwrap import dedent

PF201_BAD = [
    # DDP with a shuffled loader and no sampler; a comment mentioning the trainer (FN-2)
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset

    def main():
        dist.init_process_group("nccl")
        model = DDP(torch.nn.Linear(8, 1).cuda())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        # TODO: move this into the trainer later
        ds = TensorDataset(torch.load("features.pt"), torch.load("targets.pt"))
        loader = DataLoader(ds, batch_size=32, shuffle=True)  # error: PF201
        for epoch in range(10):
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # the loader is built in a helper (FN-3)
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torchvision import datasets, transforms

    def build_loader(batch_size):
        ds = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
        return DataLoader(ds, batch_size=batch_size, num_workers=4)  # error: PF201

    def main(rank):
        torch.distributed.init_process_group("nccl", rank=rank, world_size=4)
        model = DistributedDataParallel(Net().to(rank), device_ids=[rank])
        opt = torch.optim.AdamW(model.parameters())
        train_loader = build_loader(64)
        for epoch in range(5):
            for images, labels in train_loader:
                loss = torch.nn.functional.cross_entropy(model(images), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # deepspeed.initialize with the script's own DataLoader (FN-4)
    textwrap.dedent("""
    import deepspeed
    import torch
    from torch.utils.data import DataLoader

    model = Net()
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    loader = DataLoader(train_set, batch_size=8, shuffle=True)  # error: PF201
    for step, batch in enumerate(loader):
        loss = engine(batch)
        engine.backward(loss)
        engine.step()
"""),
    # Lightning told not to inject its DistributedSampler on 4 GPUs
    textwrap.dedent("""
    import lightning as L
    from torch.utils.data import DataLoader
    from torchvision.datasets import MNIST

    class Data(L.LightningDataModule):
        def train_dataloader(self):
            return DataLoader(MNIST("data", train=True), batch_size=64)  # error: PF201

    trainer = L.Trainer(devices=4, strategy="ddp", use_distributed_sampler=False)
    trainer.fit(Model(), datamodule=Data())
"""),
    # held-out-44: a hand-made shard (`files[rank::world_size]`): not every rank gets the same batch count
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader

    def main(files):
        dist.init_process_group("nccl")
        rank, world_size = dist.get_rank(), dist.get_world_size()
        model = DDP(Conformer().cuda())
        opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
        loader = DataLoader(UtteranceDataset(files[rank::world_size]), batch_size=8, shuffle=True)  # error: PF201
        for epoch in range(20):
            for feats, targets in loader:
                loss = model(feats.cuda(), targets.cuda())
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
]

PF201_GOOD = [
    # Lightning injects the DistributedSampler itself (default use_distributed_sampler=True)
    textwrap.dedent("""
    import lightning as L
    from torch.utils.data import DataLoader
    from torchvision.datasets import MNIST

    class Data(L.LightningDataModule):
        def train_dataloader(self):
            return DataLoader(MNIST("data", train=True), batch_size=64, shuffle=True)

    trainer = L.Trainer(devices=4, strategy="ddp")
    trainer.fit(Model(), datamodule=Data())
"""),
    # DistributedSampler
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, DistributedSampler

    model = DDP(Net().cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = DistributedSampler(train_set)
    loader = DataLoader(train_set, batch_size=32, sampler=sampler)
    for epoch in range(10):
        sampler.set_epoch(epoch)
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # streaming dataset split per node (competitor FP-4)
    textwrap.dedent("""
    import torch
    from datasets import load_dataset
    from datasets.distributed import split_dataset_by_node
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader

    ds = load_dataset("c4", "en", split="train", streaming=True)
    ds = split_dataset_by_node(ds, rank=rank, world_size=world_size)
    model = DDP(Net().cuda())
    opt = torch.optim.AdamW(model.parameters())
    for batch in DataLoader(ds, batch_size=16):
        loss = model(**batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
"""),
    # an IterableDataset subclass shards itself
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, IterableDataset

    class Shards(IterableDataset):
        def __iter__(self):
            yield from read_my_shard()

    model = DDP(Net().cuda())
    opt = torch.optim.AdamW(model.parameters())
    for batch in DataLoader(Shards(), batch_size=16):
        model(batch).mean().backward()
        opt.step()
        opt.zero_grad()
"""),
    # accelerate shards what it prepares
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = DataLoader(train_set, batch_size=16, shuffle=True)
    model, opt, loader = accelerator.prepare(Net(), torch.optim.AdamW(params), loader)
    for batch in loader:
        loss = model(batch).mean()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""),
    # synthetic random data generated on each rank (benchmarks, tests)
    textwrap.dedent("""
    import torch
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=Net(), config=cfg)
    data = torch.randn(256, 32, device=engine.device)
    labels = torch.empty(256, dtype=torch.long, device=engine.device).random_(8)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, labels), batch_size=8)
    for x, y in loader:
        engine.backward(engine(x, y))
        engine.step()
"""),
    # no data-parallel wrapper: a single-process job
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader

    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(train_set, batch_size=32, shuffle=True)
    for x, y in loader:
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    # DDP only on one path; the loader gets a sampler on that path
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, DistributedSampler

    model = Net().cuda()
    sampler = None
    if distributed:
        model = DDP(model)
        sampler = DistributedSampler(train_set)
    loader = DataLoader(train_set, batch_size=32, shuffle=(sampler is None), sampler=sampler)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    # a dataset of unknown style without shuffle: cannot tell that it is not sharded
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader
    from mydata import ShardedTokens

    model = DDP(Net().cuda())
    opt = torch.optim.AdamW(model.parameters())
    for batch in DataLoader(ShardedTokens("train"), batch_size=16):
        opt.zero_grad()
        model(batch).mean().backward()
        opt.step()
"""),
    # the same helper with a DistributedSampler
    textwrap.dedent("""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler


    def setup(model, dataset, rank):
        dist.init_process_group("nccl")
        model = DDP(model.cuda(rank), device_ids=[rank])
        loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))
        return model, loader
"""),
]



PF203_BAD = [
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler

    sampler = DistributedSampler(train_set)
    loader = DataLoader(train_set, batch_size=32, shuffle=True, sampler=sampler)  # error: PF203
"""),
    # the sampler is None on the single-GPU path only: the distributed run raises
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler

    sampler = DistributedSampler(train_set) if distributed else None
    loader = DataLoader(train_set, batch_size=32, shuffle=True, sampler=sampler)  # error: PF203
"""),
    textwrap.dedent("""
    import torch.utils.data as tud

    def make_loader(ds, batch_size):
        batches = tud.BatchSampler(tud.RandomSampler(ds), batch_size, drop_last=True)
        return tud.DataLoader(ds, batch_sampler=batches, shuffle=True)  # error: PF203
"""),
]

PF203_GOOD = [
    # the usual idiom
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler

    sampler = DistributedSampler(train_set) if distributed else None
    loader = DataLoader(train_set, batch_size=32, shuffle=(sampler is None), sampler=sampler)
"""),
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set, shuffle=True))
"""),
    textwrap.dedent("""
    from torch.utils.data import DataLoader

    loader = DataLoader(train_set, batch_size=32, shuffle=True, sampler=None)
"""),
    # a sampler parameter that every caller leaves at None
    textwrap.dedent("""
    from torch.utils.data import DataLoader

    def make_loader(ds, sampler=None):
        return DataLoader(ds, batch_size=32, shuffle=True, sampler=sampler)

    loader = make_loader(train_set)
"""),
    # shuffle from a variable preflight cannot evaluate
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=32, shuffle=args.shuffle, sampler=DistributedSampler(train_set))
"""),
]

# Fabric on several devices is data-parallel like DDP: a loader iterated without
# `fabric.setup_dataloaders` gets no DistributedSampler (held-out-21, Lightning's Fabric docs)
_FABRIC = dedent("""\
    import torch
    import torch.nn.functional as F
    from lightning.fabric import Fabric
    from torch.utils.data import DataLoader

    from tinylm import GPT, PackedTokens


    def main():
        fabric = Fabric(accelerator="cuda", {where})
        fabric.launch()
        model = GPT()
        optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
        model, optimizer = fabric.setup(model, optimizer)
        train_loader = DataLoader(PackedTokens("train.bin"), batch_size=16, shuffle=True){pin}
    {setup}
        for x, y in train_loader:
            loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
            fabric.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    """)

PF201_BAD.append(_FABRIC.format(where='devices=4, strategy="ddp"', pin="  # error: PF201", setup=""))
PF201_GOOD.extend([
    # the fix: Fabric swaps in a DistributedSampler
    _FABRIC.format(where='devices=4, strategy="ddp"', pin="",
                   setup="    train_loader = fabric.setup_dataloaders(train_loader)"),
    # tricky: one device, nothing to shard
    _FABRIC.format(where="devices=1", pin="", setup=""),
    # tricky: DataParallel keeps one process
    _FABRIC.format(where='devices=2, strategy="dp"', pin="", setup=""),
])
