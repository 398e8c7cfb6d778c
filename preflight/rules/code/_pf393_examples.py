"""PF393 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # pytorch issue 97326: a curriculum epoch set on the dataset, read by persistent workers
    dedent("""
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Curriculum(Dataset):
        def __init__(self, samples):
            self.samples = samples
            self.epoch = 0

        def set_epoch(self, epoch):
            self.epoch = epoch

        def __len__(self):
            return len(self.samples)

        def __getitem__(self, idx):
            x, y = self.samples[idx]
            return x * min(1.0, self.epoch / 10), y


    def main(samples, model, optimizer):
        dataset = Curriculum(samples)
        loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=8,
                            persistent_workers=True)  # warning: PF393
        for epoch in range(90):
            dataset.set_epoch(epoch)
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """),
]

GOOD = [
    # the fix: the epoch lives in a multiprocessing.Value shared with the workers
    dedent("""
    import multiprocessing

    from torch.utils.data import DataLoader, Dataset


    class Curriculum(Dataset):
        def __init__(self, samples):
            self.samples = samples
            self._epoch = multiprocessing.Value("i", 0)

        def set_epoch(self, epoch):
            self._epoch.value = epoch

        def __len__(self):
            return len(self.samples)

        def __getitem__(self, idx):
            x, y = self.samples[idx]
            return x * min(1.0, self._epoch.value / 10), y


    def main(samples, step):
        dataset = Curriculum(samples)
        loader = DataLoader(dataset, batch_size=64, num_workers=8, persistent_workers=True)
        for epoch in range(90):
            dataset.set_epoch(epoch)
            for batch in loader:
                step(batch)
    """),
    # tricky: the attribute changed in the loop is never read by __getitem__ (bookkeeping in the main process)
    dedent("""
    from torch.utils.data import DataLoader, Dataset


    class Shards(Dataset):
        def __init__(self, files):
            self.files = files
            self.seen_epochs = 0

        def mark_epoch(self):
            self.seen_epochs += 1

        def __len__(self):
            return len(self.files)

        def __getitem__(self, idx):
            return self.files[idx]


    def main(files, step):
        shards = Shards(files)
        loader = DataLoader(shards, batch_size=1, num_workers=4, persistent_workers=True)
        for epoch in range(10):
            for batch in loader:
                step(batch)
            shards.mark_epoch()
    """),
]
