"""PF279 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # vahidk/tfrecord issue 78's shape: record files read in full by each of 4 workers
    textwrap.dedent("""
    import glob

    from torch.utils.data import DataLoader, IterableDataset


    class TFRecordStream(IterableDataset):
        def __init__(self, pattern):
            self.files = sorted(glob.glob(pattern))

        def __iter__(self):
            for path in self.files:  # warning: PF279
                for raw in read_records(path):
                    yield parse_example(raw)


    train_set = TFRecordStream("data/train-*.tfrecord")
    loader = DataLoader(train_set, batch_size=64, num_workers=4)
    for images, labels in loader:
        train_step(images, labels)
"""),
    # the worker count from an argparse default, the dataset built in the call, `yield from`
    textwrap.dedent("""
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()


    class Lines(torch.utils.data.IterableDataset):
        def __init__(self, rows):
            self.rows = rows

        def __iter__(self):
            yield from self.rows  # warning: PF279


    loader = torch.utils.data.DataLoader(Lines(open("corpus.txt").readlines()), batch_size=32,
                                         num_workers=args.workers)
"""),
    # a range returned as an iterator (the PyTorch docs' example without its worker split)
    textwrap.dedent("""
    import torch


    class MyIterableDataset(torch.utils.data.IterableDataset):
        def __init__(self, start, end):
            super().__init__()
            self.start, self.end = start, end

        def __iter__(self):
            return iter(range(self.start, self.end))  # warning: PF279


    ds = MyIterableDataset(0, 4)
    dataloader = torch.utils.data.DataLoader(ds, batch_size=2, num_workers=8)
"""),
]

GOOD_EXAMPLES = [
    # the fix: the files split by worker
    textwrap.dedent("""
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info


    class TFRecordStream(IterableDataset):
        def __init__(self, files):
            self.files = files

        def __iter__(self):
            info = get_worker_info()
            files = self.files if info is None else self.files[info.id::info.num_workers]
            for path in files:
                yield from read_records(path)


    loader = DataLoader(TFRecordStream(paths), batch_size=64, num_workers=4)
"""),
    # tricky: a generator of random samples (each worker's RNG differs), one worker, a
    # worker_init_fn that configures each copy, and a split by rank and worker in a helper
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, IterableDataset


    class RandomCrops(IterableDataset):
        def __init__(self, image):
            self.image = image

        def __iter__(self):
            while True:
                yield random_crop(self.image)


    class Stream(IterableDataset):
        def __init__(self, files):
            self.files = files

        def __iter__(self):
            for path in self.files:
                yield from read(path)


    class Sharded(IterableDataset):
        def __init__(self, files):
            self.files = files

        def _my_files(self):
            info = torch.utils.data.get_worker_info()
            return self.files[info.id::info.num_workers] if info else self.files

        def __iter__(self):
            for path in self._my_files():
                yield from read(path)


    a = DataLoader(RandomCrops(img), batch_size=16, num_workers=8)
    b = DataLoader(Stream(files), batch_size=16, num_workers=1)
    c = DataLoader(Stream(files), batch_size=16, num_workers=4, worker_init_fn=split_files)
    d = DataLoader(Sharded(files), batch_size=16, num_workers=4)
"""),
]
