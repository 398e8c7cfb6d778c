"""A project's own batch sampler closing a batch at `self.batch_size` (issue 15): a small rewrite of
our own with the shape of jingyaogong/minimind @ d65ef2c trainer/trainer_utils.py:134-150
(SkipBatchSampler) and trainer/train_pretrain.py:161-162 (DataLoader(batch_sampler=...))."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

UTILS = """\
    from torch.utils.data import Sampler

    class SkipBatchSampler(Sampler):
        def __init__(self, sampler, batch_size, skip_batches=0):
            self.sampler = sampler
            self.batch_size = batch_size
            self.skip_batches = skip_batches

        def __iter__(self):
            batch = []
            for idx in self.sampler:
                batch.append(idx)
                if len(batch) == self.batch_size:
                    yield batch
                    batch = []

    class BucketSampler(Sampler):
        def __init__(self, sampler, batch_size):
            self.sampler = sampler
            self.batch_size = batch_size

        def __iter__(self):
            ids = list(self.sampler)
            for j in range(0, len(ids), self.batch_size * 2):
                yield ids[j:j + self.batch_size * 2]
    """

TRAIN = """\
    import argparse
    import torch
    from torch.utils.data import DataLoader
    from trainer_utils import SkipBatchSampler, BucketSampler

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    args = parser.parse_args()
    ds = list(range(100))
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.AdamW(model.parameters())
    batch_sampler = SkipBatchSampler(list(range(100)), args.batch_size, 0)
    loader = DataLoader(ds, batch_sampler=batch_sampler, num_workers=0)
    for x in loader:
        model(x).sum().backward()
        opt.step()
    """


def test_project_sampler_batch(cli, tmp_path):
    write(tmp_path, {"trainer_utils.py": UTILS, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16


def test_a_sampler_cutting_batches_otherwise_is_not_read(cli, tmp_path):
    write(tmp_path, {"trainer_utils.py": UTILS,
                     "train.py": TRAIN.replace("SkipBatchSampler(list(range(100)), args.batch_size, 0)",
                                               "BucketSampler(list(range(100)), args.batch_size)")})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 16
