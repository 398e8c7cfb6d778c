"""Examples for PF202 sampler-without-set-epoch (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

import textwrap

PF202_BAD = [
    # held-out-14 (LambdaLabs distributed-training-guide issue 40): the loader is consumed by hand,
    # a fresh iter() per epoch and next() per step
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    model = DistributedDataParallel(Net().cuda())
    sampler = DistributedSampler(train_data, drop_last=True)
    dataloader = DataLoader(train_data, batch_size=4, sampler=sampler)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    for epoch in range(3):  # warning: PF202
        batches = iter(dataloader)
        for step in range(len(dataloader)):
            batch = next(batches)
            loss = model(**batch).loss
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
"""),
    # competitor FN-5
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    model = DDP(Net().cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = DistributedSampler(train_set)
    loader = DataLoader(train_set, batch_size=32, sampler=sampler)
    for epoch in range(10):  # warning: PF202
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # the epoch loop calls a helper that iterates the loader
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    def train_one_epoch(model, loader, opt):
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()

    def main():
        model = torch.nn.parallel.DistributedDataParallel(Net().cuda())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
        for epoch in range(10):  # warning: PF202
            train_one_epoch(model, loader, opt)
"""),
    # DistributedSampler on the multi-GPU path only (DeepSpeed-Chat style)
    textwrap.dedent("""
    import deepspeed
    from torch.utils.data import DataLoader, DistributedSampler, RandomSampler

    def main(args, model, train_dataset):
        if args.local_rank == -1:
            train_sampler = RandomSampler(train_dataset)
        else:
            train_sampler = DistributedSampler(train_dataset)
        train_dataloader = DataLoader(train_dataset, sampler=train_sampler, batch_size=8)
        model, optimizer, _, _ = deepspeed.initialize(model=model, args=args)
        for epoch in range(args.num_train_epochs):  # warning: PF202
            model.train()
            for step, batch in enumerate(train_dataloader):
                loss = model(**batch).loss
                model.backward(loss)
                model.step()
"""),
    # stylegan2-pytorch issue 319: a generator re-iterates the loader forever; the sampler comes
    # from a helper asked to shuffle; nothing calls set_epoch
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.utils import data


    def data_sampler(dataset, shuffle, distributed):
        if distributed:
            return data.distributed.DistributedSampler(dataset, shuffle=shuffle)
        return data.RandomSampler(dataset)


    def sample_data(loader):
        while True:  # warning: PF202
            for batch in loader:
                yield batch


    def train(args, loader, generator, g_optim):
        loader = sample_data(loader)
        for idx in range(args.iter):
            real = next(loader)
            loss = generator(real).mean()
            generator.zero_grad()
            loss.backward()
            g_optim.step()


    def main(args, dataset, generator, g_optim):
        dist.init_process_group("nccl")
        generator = torch.nn.parallel.DistributedDataParallel(generator)
        loader = data.DataLoader(dataset, batch_size=args.batch,
                                 sampler=data_sampler(dataset, shuffle=True, distributed=True), drop_last=True)
        train(args, loader, generator, g_optim)
"""),
    # held-out-17 (FixMatch-pytorch issue 34): a labeled and an unlabeled loader walked together
    # with zip; one epoch loop, two shuffling samplers, no set_epoch
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    def main(args, labeled_set, unlabeled_set):
        dist.init_process_group("nccl")
        labeled_sampler = DistributedSampler(labeled_set, shuffle=True)
        unlabeled_sampler = DistributedSampler(unlabeled_set)
        labeled_loader = DataLoader(labeled_set, sampler=labeled_sampler, batch_size=64)
        unlabeled_loader = DataLoader(unlabeled_set, sampler=unlabeled_sampler, batch_size=448)
        model = DDP(Net().cuda())
        optimizer = torch.optim.SGD(model.parameters(), lr=0.03)
        for epoch in range(args.epochs):  # warning: PF202
            for step, ((x, y), (u, _)) in enumerate(zip(labeled_loader, unlabeled_loader)):
                loss = model(x, y, u)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # zip: set_epoch on one of the two samplers only
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    src_sampler = DistributedSampler(source_set)
    tgt_sampler = DistributedSampler(target_set)
    src_loader = DataLoader(source_set, sampler=src_sampler, batch_size=32)
    tgt_loader = DataLoader(target_set, sampler=tgt_sampler, batch_size=32)
    for epoch in range(20):  # warning: PF202
        src_sampler.set_epoch(epoch)
        for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
            loss = model(xs, ys, xt)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # two epochs are enough to repeat the order (the one-epoch twin in PF202_GOOD stays silent)
    textwrap.dedent("""
    import deepspeed
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=8, sampler=DistributedSampler(train_set))
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for epoch in range(0, 2):  # warning: PF202
        for chosen, rejected in loader:
            loss = -torch.nn.functional.logsigmoid(engine(chosen) - engine(rejected)).mean()
            engine.backward(loss)
            engine.step()
"""),
]


PF202_GOOD = [
    # the fix of the zip case: both samplers get set_epoch; a zip over a sampler with shuffle=False
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    labeled_sampler = DistributedSampler(labeled_set)
    unlabeled_sampler = DistributedSampler(unlabeled_set)
    labeled_loader = DataLoader(labeled_set, sampler=labeled_sampler, batch_size=64)
    unlabeled_loader = DataLoader(unlabeled_set, sampler=unlabeled_sampler, batch_size=448)
    for epoch in range(100):
        labeled_sampler.set_epoch(epoch)
        unlabeled_sampler.set_epoch(epoch)
        for (x, y), (u, _) in zip(labeled_loader, unlabeled_loader):
            loss = model(x, y, u)
            opt.zero_grad()
            loss.backward()
            opt.step()

    paired_loader = DataLoader(pairs, sampler=DistributedSampler(pairs, shuffle=False), batch_size=8)
    for epoch in range(3):
        for (a, b), c in zip(paired_loader, extra_batches):
            loss = model(a, b, c)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

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
    # set_epoch through the loader
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
    for epoch in range(10):
        loader.sampler.set_epoch(epoch)
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # shuffle=False: the order is meant to be fixed
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set, shuffle=False))
    for epoch in range(10):
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # one pass over the data: no epoch loop
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
    for x, y in loader:
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    # an evaluation loop (no training): the order does not matter
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    val_loader = DataLoader(val_set, batch_size=32, sampler=DistributedSampler(val_set))
    for epoch in range(10):
        with torch.no_grad():
            for x, y in val_loader:
                metric.update(model(x), y)
"""),
    # accelerate calls set_epoch on prepared loaders
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, DistributedSampler

    accelerator = Accelerator()
    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for epoch in range(10):
        for batch in loader:
            accelerator.backward(model(batch).mean())
            opt.step()
"""),
    # the fix: the generator calls set_epoch; a helper only ever asked not to shuffle; a generator
    # whose caller does not train
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.utils import data


    def data_sampler(dataset, shuffle):
        return data.distributed.DistributedSampler(dataset, shuffle=shuffle)


    def sample_data(loader, sampler):
        epoch = 0
        while True:
            sampler.set_epoch(epoch)
            for batch in loader:
                yield batch
            epoch += 1


    def endless(loader):
        while True:
            for batch in loader:
                yield batch


    def train(args, loader, sampler, generator, g_optim):
        loader = sample_data(loader, sampler)
        for idx in range(args.iter):
            loss = generator(next(loader)).mean()
            generator.zero_grad()
            loss.backward()
            g_optim.step()


    def preview(loader, generator):
        batches = endless(loader)
        with torch.no_grad():
            return [generator(next(batches)) for _ in range(4)]


    def main(args, dataset, generator, g_optim):
        dist.init_process_group("nccl")
        generator = torch.nn.parallel.DistributedDataParallel(generator)
        sampler = data_sampler(dataset, shuffle=True)
        loader = data.DataLoader(dataset, batch_size=args.batch, sampler=sampler)
        train(args, loader, sampler, generator, g_optim)
        fixed = data.DataLoader(dataset, batch_size=8, sampler=data_sampler(dataset, shuffle=False))
        preview(fixed, generator)
"""),
    # the fix of the iter()/next() shape: set_epoch before the fresh iterator
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    model = DistributedDataParallel(Net().cuda())
    sampler = DistributedSampler(train_data, drop_last=True)
    dataloader = DataLoader(train_data, batch_size=4, sampler=sampler)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        batches = iter(dataloader)
        for step in range(len(dataloader)):
            batch = next(batches)
            loss = model(**batch).loss
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
"""),
    # tricky-correct: one iterator made before every loop; the outer loop does not restart the
    # loader (one pass over the data split into chunks), so it repeats no epoch
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    model = DistributedDataParallel(Net().cuda())
    sampler = DistributedSampler(train_data)
    dataloader = DataLoader(train_data, batch_size=4, sampler=sampler)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    batches = iter(dataloader)
    for chunk in range(len(dataloader) // 100):
        for step in range(100):
            loss = model(**next(batches)).loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
    # tricky-correct (held-out-23, DeepSpeedExamples issue 820's reward-model run): the epoch loop runs
    # once, so the sampler's epoch 0 is the only one and set_epoch would change nothing
    textwrap.dedent("""
    import deepspeed
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    loader = DataLoader(train_set, batch_size=8, sampler=DistributedSampler(train_set))
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for epoch in range(1):
        for chosen, rejected in loader:
            loss = -torch.nn.functional.logsigmoid(engine(chosen) - engine(rejected)).mean()
            engine.backward(loss)
            engine.step()
"""),
]
