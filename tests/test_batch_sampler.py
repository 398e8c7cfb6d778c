"""A DataLoader whose batches come from torch's own ``BatchSampler`` (issue 15, jobs set 11): the
sampler's ``batch_size`` is the loader's per-process batch. Shape of facebookresearch/detr
main.py:133-140 @ 29901c51d7fe (a ``DistributedSampler`` wrapped in
``torch.utils.data.BatchSampler(sampler_train, args.batch_size, drop_last=True)``, handed to
``DataLoader(batch_sampler=...)``); the fixtures are written from scratch."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

DETR = """\
    import argparse
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    from sampling import BucketSampler

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=2, type=int)
    parser.add_argument("--num_workers", default=2, type=int)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4).cuda()
    model = torch.nn.parallel.DistributedDataParallel(model)
    sampler_train = DistributedSampler(dataset_train)
    batch_sampler_train = SAMPLER
    data_loader_train = DataLoader(dataset_train, batch_sampler=batch_sampler_train, num_workers=args.num_workers)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for samples, targets in data_loader_train:
        loss = model(samples).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_torch_batch_sampler_gives_the_micro_batch(cli, tmp_path):
    sampler = "torch.utils.data.BatchSampler(sampler_train, args.batch_size, drop_last=True)"
    write(tmp_path, {"main.py": DETR.replace("SAMPLER", sampler)})
    plan = plan_of(cli, "main.py", "--", "--batch_size", "4", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 4
    assert "BatchSampler" in micro.source.detail


def test_batch_sampler_keyword_and_default(cli, tmp_path):
    sampler = "torch.utils.data.BatchSampler(sampler_train, batch_size=args.batch_size, drop_last=True)"
    write(tmp_path, {"main.py": DETR.replace("SAMPLER", sampler)})
    micro = fact(plan_of(cli, "main.py", cwd=tmp_path), "batch.micro")
    assert micro is not None and micro.value == 2


def test_a_project_sampler_says_nothing(cli, tmp_path):
    # a project's own sampler (VITS's DistributedBucketSampler) batches as its code decides
    sampler = "BucketSampler(dataset_train, args.batch_size, [32, 300, 400])"
    write(tmp_path, {"main.py": DETR.replace("SAMPLER", sampler),
                     "sampling.py": "class BucketSampler:\n    pass\n"})
    assert fact(plan_of(cli, "main.py", cwd=tmp_path), "batch.micro") is None
