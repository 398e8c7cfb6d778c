"""PF316 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_DATA = textwrap.dedent("""
    # --- volumes.py
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class Volumes(Dataset):
        def __init__(self, arrays, seed):
            self.arrays = arrays
            self.rs = {ctor}

        def __len__(self):
            return len(self.arrays)

        def __getitem__(self, i):{extra}
            x = self.arrays[i] * self.jitter()
            return torch.from_numpy(x)

        def jitter(self):
            return self.rs.uniform(0.7, 1.3)
""")

_TRAIN = textwrap.dedent("""
    # --- train.py
    import torch
    from torch.utils.data import DataLoader

    from volumes import Volumes
    {hook}
    dataset = Volumes(load_arrays("data"), seed=47)
    loader = DataLoader(dataset, batch_size=2, shuffle=True, num_workers={workers}{kwargs}){pin}
    for epoch in range(100):
        for x in loader:
            train_step(x)
""")

_HOOK = textwrap.dedent("""

    def reseed(worker_id):
        info = torch.utils.data.get_worker_info()
        info.dataset.rs = np.random.RandomState(torch.initial_seed() % 2 ** 32)

""")


def _job(ctor: str = "np.random.RandomState(seed)", extra: str = "", workers: int = 4, kwargs: str = "",
         pin: str = "", hook: str = "") -> str:
    return _DATA.format(ctor=ctor, extra=extra) + _TRAIN.format(workers=workers, kwargs=kwargs, pin=pin, hook=hook)


BAD_EXAMPLES = [
    # held-out-27 (pytorch-3dunet issue 32): the dataset's RandomState drawn through a helper method,
    # the dataset class in another file than the loader
    _job(pin="  # warning: PF316"),
    # the new NumPy API has the same copy: default_rng in __init__, drawn in __getitem__ directly
    textwrap.dedent("""
    # --- train.py
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Crops(Dataset):
        def __init__(self, images, size=224):
            self.images, self.size = images, size
            self.rng = np.random.default_rng(0)

        def __len__(self):
            return len(self.images)

        def __getitem__(self, i):
            img = self.images[i]
            y, x = self.rng.integers(0, img.shape[0] - self.size, size=2)
            return torch.from_numpy(img[y:y + self.size, x:x + self.size])


    loader = DataLoader(Crops(load_images()), batch_size=64, shuffle=True, num_workers=8)  # warning: PF316
    for batch in loader:
        train_step(batch)
    """),
]

GOOD_EXAMPLES = [
    # the fix: a worker_init_fn rebuilds the generator in each worker
    _job(kwargs=", worker_init_fn=reseed", hook=_HOOK),
    # tricky-correct: one worker or none (nothing to duplicate across workers)
    _job(workers=1),
    _job(workers=0),
    # tricky-correct: the class reseeds its generator from the worker's seed itself
    _job(extra="\n        if self.rs is None:\n            pass\n        self.rs.seed(torch.utils.data.get_worker_info().seed % 2 ** 32)"),
    # tricky-correct: a generator made per item (deterministic per sample on purpose), and a generator
    # in __init__ that __getitem__ never draws from (used once to split the data)
    textwrap.dedent("""
    # --- train.py
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset


    class FixedCrops(Dataset):
        def __init__(self, images):
            rng = np.random.RandomState(0)
            self.order = rng.permutation(len(images))
            self.split = np.random.RandomState(1)
            self.keep = self.split.permutation(len(images))[:1000]
            self.images = images

        def __len__(self):
            return len(self.keep)

        def __getitem__(self, i):
            rs = np.random.RandomState(i)
            img = self.images[self.keep[i]]
            y = rs.randint(0, img.shape[0] - 32)
            return torch.from_numpy(img[y:y + 32])


    loader = DataLoader(FixedCrops(load_images()), batch_size=64, num_workers=8)
    for batch in loader:
        train_step(batch)
    """),
    # tricky-correct: a project class named Random is not the stdlib generator
    _job(ctor="Random(seed)"),
]
