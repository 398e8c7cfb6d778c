"""PF331 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_DATA = textwrap.dedent("""
    # --- shapes.py
    import h5py
    import torch
    from torch.utils.data import Dataset


    class Shapes(Dataset):
        def __init__(self, path, split="train"):
            self.path, self.split = path, split
            {open_line}

        def __len__(self):
            return self.n

        def __getitem__(self, i):{lazy}
            return torch.from_numpy(self.views[i]).float(), int(self.labels[i])
""")

_OPEN = ('self.h5 = h5py.File(path, "r"){pin}\n'
         '        self.views, self.labels = self.h5[split]["data"], self.h5[split]["label"]\n'
         '        self.n = self.labels.shape[0]')

_TRAIN = textwrap.dedent("""
    # --- train.py
    import torch
    from torch.utils.data import DataLoader

    from shapes import Shapes
    {hook}
    train_set = Shapes("data/modelnet40.h5")
    loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers={workers}{kwargs})
    for epoch in range(30):
        for views, labels in loader:
            train_step(views, labels)
""")


def _job(pin: str = "", workers: str = "2", kwargs: str = "", open_line: str = _OPEN, lazy: str = "",
         hook: str = "") -> str:
    return (_DATA.format(open_line=open_line.format(pin=pin), lazy=lazy)
            + _TRAIN.format(workers=workers, kwargs=kwargs, hook=hook))


_REOPEN = textwrap.dedent("""

    def reopen(worker_id):
        ds = torch.utils.data.get_worker_info().dataset
        ds.h5 = h5py.File(ds.path, "r")
        ds.views, ds.labels = ds.h5[ds.split]["data"], ds.h5[ds.split]["label"]

""")


_LAZY_OPEN = ('self.h5 = None\n'
              '        with h5py.File(path, "r") as f:\n'
              '            self.n = f[split]["label"].shape[0]')
_LAZY_GET = ('\n        if self.h5 is None:  # opened once in each worker\n'
             '            self.h5 = h5py.File(self.path, "r")\n'
             '            self.views, self.labels = self.h5[self.split]["data"], self.h5[self.split]["label"]')

BAD_EXAMPLES = [
    # pytorch issue 1919's shape: the ModelNet40 .h5 opened in __init__, read by 2 forked workers
    _job(pin="  # warning: PF331"),
    # an LMDB environment opened in __init__, the loader's worker count bound to a name once
    textwrap.dedent("""
    # --- train.py
    import lmdb
    import torch
    from torch.utils.data import DataLoader, Dataset


    class LmdbImages(Dataset):
        def __init__(self, root):
            self.env = lmdb.open(root, readonly=True, lock=False)  # warning: PF331
            with self.env.begin() as txn:
                self.length = txn.stat()["entries"]

        def __len__(self):
            return self.length

        def __getitem__(self, i):
            with self.env.begin() as txn:
                return decode(txn.get(str(i).encode()))


    WORKERS = 8
    loader = DataLoader(LmdbImages("data/train.lmdb"), batch_size=64, num_workers=WORKERS)
    for batch in loader:
        train_step(batch)
    """),
]

BAD_EXAMPLES.append(
    # SRGAN/denoising repositories' shape: a local handle whose datasets are kept on self
    textwrap.dedent("""
    # --- train.py
    import h5py
    import torch
    import torch.utils.data as data


    class DatasetFromHdf5(data.Dataset):
        def __init__(self, file_path):
            super().__init__()
            hf = h5py.File(file_path, "r")  # warning: PF331
            self.input = hf.get("input")
            self.label = hf.get("label")

        def __getitem__(self, index):
            return torch.from_numpy(self.input[index]).float(), torch.from_numpy(self.label[index]).float()

        def __len__(self):
            return self.input.shape[0]


    loader = data.DataLoader(DatasetFromHdf5("data/train.h5"), batch_size=64, shuffle=True, num_workers=4)
    for x, y in loader:
        train_step(x, y)
    """))

GOOD_EXAMPLES = [
    # the fix: only the length read in __init__ (inside `with`), the file opened lazily in each worker
    _job(open_line=_LAZY_OPEN, lazy=_LAZY_GET),
    # tricky-correct: no worker processes, the main process reads its own handle
    _job(workers="0"),
    # tricky-correct: a worker_init_fn reopens the file in each worker
    _job(kwargs=", worker_init_fn=reopen", hook="import h5py\n" + _REOPEN),
    # tricky-correct: the handle is opened in __init__ but the class pickles itself without it
    textwrap.dedent("""
    # --- train.py
    import h5py
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Frames(Dataset):
        def __init__(self, path):
            self.path = path
            self.h5 = h5py.File(path, "r")
            self.n = len(self.h5["x"])

        def __getstate__(self):
            state = dict(self.__dict__)
            state["h5"] = None
            return state

        def __setstate__(self, state):
            self.__dict__.update(state)
            self.h5 = h5py.File(self.path, "r")

        def __len__(self):
            return self.n

        def __getitem__(self, i):
            return torch.from_numpy(self.h5["x"][i])


    loader = DataLoader(Frames("data/frames.h5"), batch_size=16, num_workers=4,
                        multiprocessing_context="spawn")
    for batch in loader:
        train_step(batch)
    """),
    # tricky-correct: a local handle whose data are copied into memory and which is closed in __init__
    textwrap.dedent("""
    # --- train.py
    import h5py
    import numpy as np
    import torch.utils.data as data


    class InMemory(data.Dataset):
        def __init__(self, path):
            hf = h5py.File(path, "r")
            self.x = np.array(hf["x"])
            self.y = hf["y"][:]
            hf.close()

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return len(self.x)


    loader = data.DataLoader(InMemory("data/train.h5"), batch_size=64, shuffle=True, num_workers=4)
    for x, y in loader:
        train_step(x, y)
    """),
    # tricky-correct: the worker count comes from the command line (unknown), and the h5 file of a
    # non-project class is not looked into
    textwrap.dedent("""
    # --- train.py
    import argparse

    import h5py
    from torch.utils.data import DataLoader, Dataset

    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()


    class Cached(Dataset):
        def __init__(self, path):
            self.h5 = h5py.File(path, "r")

        def __len__(self):
            return len(self.h5["x"])

        def __getitem__(self, i):
            return self.h5["x"][i]


    loader = DataLoader(Cached("cache.h5"), batch_size=16, num_workers=args.workers)
    for batch in loader:
        train_step(batch)
    """),
]
