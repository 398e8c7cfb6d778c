"""PF234 examples (projects: `# --- path` sections): bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF234_BAD = [
    # mllam/neural-lam issue 234 shape: the data class hard-codes persistent workers, the worker
    # count is a flag whose default is 0, and the launch line leaves it there
    textwrap.dedent("""
    # --- data.py
    from torch.utils.data import DataLoader


    class WeatherData:
        def __init__(self, root, batch_size, num_workers):
            self.root, self.batch_size, self.num_workers = root, batch_size, num_workers

        def train_dataloader(self, ds):
            return DataLoader(ds, batch_size=self.batch_size, shuffle=True, num_workers=self.num_workers,
                              persistent_workers=True)  # error: PF234
    # --- train.py
    import argparse

    from data import WeatherData

    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", type=int, default=4)
    p.add_argument("--num_workers", type=int, default=0)
    args = p.parse_args()
    data = WeatherData("data/", args.batch_size, args.num_workers)
    # --- launch
    python train.py --batch_size 2
"""),
    # no num_workers at all, and a literal 0 in one file
    textwrap.dedent("""
    # --- train.py
    from torch.utils.data import DataLoader


    def loaders(train_ds, val_ds):
        train = DataLoader(train_ds, batch_size=64, persistent_workers=True)  # error: PF234
        val = DataLoader(val_ds, batch_size=64, num_workers=0, persistent_workers=True)  # error: PF234
        return train, val
"""),
]

PF234_GOOD = [
    # the fix: the flag follows the worker count
    textwrap.dedent("""
    # --- data.py
    from torch.utils.data import DataLoader


    class WeatherData:
        def __init__(self, root, batch_size, num_workers):
            self.root, self.batch_size, self.num_workers = root, batch_size, num_workers

        def train_dataloader(self, ds):
            return DataLoader(ds, batch_size=self.batch_size, num_workers=self.num_workers,
                              persistent_workers=self.num_workers > 0)
    # --- train.py
    import argparse

    from data import WeatherData

    p = argparse.ArgumentParser()
    p.add_argument("--num_workers", type=int, default=0)
    args = p.parse_args()
    data = WeatherData("data/", 4, args.num_workers)
"""),
    # tricky-correct: the default is 0 but the launch line sets workers; a builder function whose
    # callers pass a positive count
    textwrap.dedent("""
    # --- data.py
    from torch.utils.data import DataLoader


    class Data:
        def __init__(self, num_workers):
            self.num_workers = num_workers

        def loader(self, ds):
            return DataLoader(ds, num_workers=self.num_workers, persistent_workers=True)


    def build(ds, workers):
        return DataLoader(ds, num_workers=workers, persistent_workers=True)
    # --- train.py
    import argparse

    from data import Data, build

    p = argparse.ArgumentParser()
    p.add_argument("--num_workers", type=int, default=0)
    args = p.parse_args()
    data = Data(args.num_workers)
    extra = build([], workers=args.num_workers)
    # --- launch
    python train.py --num_workers 8
"""),
]
