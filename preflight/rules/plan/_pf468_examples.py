"""PF468 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset


    class NoisyPatches(Dataset):
        def __init__(self, patches, sigma):
            self.patches = patches
            self.sigma = sigma

        def __len__(self):
            return len(self.patches)

        def __getitem__(self, idx):
            clean = self.patches[idx].astype(np.float32){seed}
            return torch.from_numpy(clean + self.noise(clean.shape)), torch.from_numpy(clean)

        def noise(self, shape):
            return np.random.normal(0.0, self.sigma / 255.0, size=shape).astype(np.float32)


    {init}dataset = NoisyPatches(load_patches("data"), sigma=25)
    loader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers={workers}{kwargs}){pin}
    for epoch in range(50):
        for noisy, clean in loader:
            train_step(noisy, clean)
""")

_SEED = """def seed_worker(worker_id):
    np.random.seed(torch.initial_seed() % 2 ** 32)


"""

# CenterNet issue 233's shape: the dataset class in another file of the project, the worker count an
# argparse option (its default, or the launch line's value, read from the plan)
_IMPORTED = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    from torch.utils.data import DataLoader

    from detdata import DetDataset

    parser = argparse.ArgumentParser()
    parser.add_argument("--num_workers", type=int, default={default})
    args = parser.parse_args()
    loader = DataLoader(DetDataset("data/coco"), batch_size=32, num_workers=args.num_workers{kwargs}){pin}
    for batch in loader:
        train_step(batch)
    # --- detdata.py
    import numpy as np
    import torch


    class DetDataset(torch.utils.data.Dataset):
        def __init__(self, root):
            self.root = root

        def __len__(self):
            return 1000

        def __getitem__(self, idx):
            scale = np.random.choice(np.arange(0.6, 1.4, 0.1))
            return torch.full((3, 8, 8), float(scale))
    # --- requirements.txt
    torch==1.4.0
""")

# torch issue 41329's shape: an IterableDataset whose __iter__ splits the tiles by worker (get_worker_info, not
# a seed) and draws its crop offsets from np.random
_STREAM = textwrap.dedent("""
    # --- train.py
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info


    class RandomPatches(IterableDataset):
        def __init__(self, tiles):
            self.tiles = tiles

        def __iter__(self):
            info = get_worker_info()
            mine = self.tiles[info.id::info.num_workers] if info is not None else self.tiles{seed}
            for image in mine:
                y = np.random.randint(0, image.shape[-2] - 256)
                yield image[:, y:y + 256]


    for epoch in range(100):
        loader = DataLoader(RandomPatches(torch.load("tiles.pt")), batch_size=16, num_workers=6){pin}
        for batch in loader:
            train_step(batch)
    # --- requirements.txt
    torch==1.6.0
""")

BAD_EXAMPLES = [
    # held-out-17 (a DnCNN denoising blog post): np.random noise in four workers on torch 1.8
    _TRAIN.format(seed="", init="", workers=4, kwargs="", pin="  # warning: PF468") + """\
# --- requirements.txt
torch==1.8.1
numpy==1.20.3
""",
    # torch issue 5059's shape: the draw directly in __getitem__, `from numpy import random`
    textwrap.dedent("""
    # --- data.py
    from numpy import random as npr
    import torch
    from torch.utils.data import DataLoader


    class Crops(torch.utils.data.Dataset):
        def __len__(self):
            return 1000

        def __getitem__(self, i):
            x = npr.randint(0, 100)
            return torch.tensor(x)


    loader = DataLoader(Crops(), batch_size=8, num_workers=6)  # warning: PF468
    # --- requirements.txt
    torch==1.4.0
"""),
    # CenterNet issue 233: an imported dataset class drawing from np.random, 8 workers from --num_workers
    _IMPORTED.format(default=8, kwargs="", pin="  # warning: PF468"),
    # torch issue 41329: the draw in an IterableDataset's __iter__, which reads get_worker_info only to split
    _STREAM.format(seed="", pin="  # warning: PF468"),
]

GOOD_EXAMPLES = [
    # tricky-correct: the iterable dataset reseeds NumPy from the worker's own seed
    _STREAM.format(seed="\n        np.random.seed(info.seed % 2 ** 32 if info is not None else 0)", pin=""),
    # tricky-correct: the same stream on torch 1.9 (NumPy seeded per worker by the DataLoader)
    _STREAM.format(seed="", pin="").replace("torch==1.6.0", "torch==1.9.0"),
    # the CenterNet fix: a worker_init_fn that reseeds NumPy in each worker
    _IMPORTED.format(default=8, kwargs=", worker_init_fn=lambda i: np.random.seed(torch.initial_seed() % 2 ** 32)",
                     pin=""),
    # tricky-correct: the option's default is 0 (the loading happens in the main process)
    _IMPORTED.format(default=0, kwargs="", pin=""),
    # the fix: a worker_init_fn seeds NumPy per worker
    _TRAIN.format(seed="", init=_SEED, workers=4, kwargs=", worker_init_fn=seed_worker", pin="") + """\
# --- requirements.txt
torch==1.8.1
""",
    # tricky-correct: torch 1.9 seeds NumPy per worker itself; torch not pinned (a recent release)
    _TRAIN.format(seed="", init="", workers=4, kwargs="", pin="") + """\
# --- requirements.txt
torch==1.9.0
""",
    _TRAIN.format(seed="", init="", workers=4, kwargs="", pin="") + """\
# --- requirements.txt
torch>=1.7
""",
    # tricky-correct: one worker (nothing to duplicate); the dataset reseeds NumPy per worker itself
    _TRAIN.format(seed="", init="", workers=1, kwargs="", pin="") + """\
# --- requirements.txt
torch==1.8.1
""",
    _TRAIN.format(seed="\n        np.random.seed(torch.utils.data.get_worker_info().seed % 2 ** 32)", init="",
                  workers=4, kwargs="", pin="") + """\
# --- requirements.txt
torch==1.8.1
""",
]
