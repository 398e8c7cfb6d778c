"""PF370 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent. Shapes of pytorch#40403 (a cached-embedding dataset kept on the GPU) and
pytorch#77159 / Ultra-Fast-Lane-Detection-v2#160 (``.cuda()`` in ``__getitem__``)."""

from __future__ import annotations

import textwrap

_IMPORTED = textwrap.dedent("""
    # --- data.py
    import torch
    from torch.utils.data import Dataset


    class CachedEmbeddingDataset(Dataset):
        def __init__(self, path, device={device}):
            blob = torch.load(path, map_location="cpu")
            self.features = blob["features"]{move}
            self.labels = blob["labels"]{move}

        def __len__(self):
            return self.labels.shape[0]

        def __getitem__(self, idx):
            return self.features[idx], self.labels[idx]
    # --- train.py
    import argparse

    import torch
    from torch.utils.data import DataLoader

    from data import CachedEmbeddingDataset


    def build_loader(path, batch_size, workers):
        dataset = CachedEmbeddingDataset(path{args})
        return DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers={lit}{kwargs}){pin}


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--workers", type=int, default={workers})
        args = parser.parse_args()
        loader = DataLoader(CachedEmbeddingDataset("cache/train.pt"{args}), num_workers=args.workers{kwargs}){pin2}
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
""")

_GETITEM = textwrap.dedent("""
    # --- train.py
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Lanes(Dataset):
        def __init__(self, items):
            self.items = items

        def __len__(self):
            return len(self.items)

        def __getitem__(self, i):
            image, label = self.items[i]
            return {ret}


    model = torch.nn.Linear(8, 2).cuda()
    loader = DataLoader(Lanes(load_items()), batch_size=16, num_workers={workers}{kwargs}){pin}
    for image, label in loader:
        model(image.cuda())
""")

BAD_EXAMPLES = [
    # pytorch#40403 (held-out-21): the dataset moves its tensors to the default device "cuda" in
    # __init__; the loaders fork 8 workers (a literal in one, the --workers default in the other)
    _IMPORTED.format(device='"cuda"', move=".to(device)", args="", lit=8, workers=8, kwargs="",
                     pin="  # error: PF370", pin2="  # error: PF370"),
    # the same with .cuda(); only the loader with workers forks (the literal one reads in-process)
    _IMPORTED.format(device="None", move=".cuda()", args="", lit=0, workers=4, kwargs="", pin="",
                     pin2="  # error: PF370"),
    # pytorch#77159: the item moved to the GPU in __getitem__
    _GETITEM.format(ret='image.to("cuda"), label', workers=4, kwargs="", pin="  # error: PF370"),
    # the fork start method named explicitly is the same start
    _GETITEM.format(ret="image.cuda(), label.cuda()", workers=2, kwargs=', multiprocessing_context="fork"',
                    pin="  # error: PF370"),
]

GOOD_EXAMPLES = [
    # the fix: the dataset stays on the CPU, batches are moved in the loop
    _IMPORTED.format(device='"cpu"', move="", args="", lit=8, workers=8, kwargs="", pin="", pin2=""),
    # tricky-correct: the "cuda" default is overridden by the constructor calls (device="cpu")
    _IMPORTED.format(device='"cuda"', move=".to(device)", args=', device="cpu"', lit=8, workers=8, kwargs="",
                     pin="", pin2=""),
    # tricky-correct: a GPU dataset read in the main process (num_workers 0), or by spawned workers
    _IMPORTED.format(device='"cuda"', move=".to(device)", args="", lit=0, workers=0, kwargs="", pin="", pin2=""),
    _GETITEM.format(ret='image.to("cuda"), label', workers=4, kwargs=', multiprocessing_context="spawn"', pin=""),
    # tricky-correct: the parent never touches CUDA (only the dataset does, in each worker): a fork of a
    # parent without a CUDA context may initialise its own
    textwrap.dedent("""
    # --- embed.py
    import torch
    from torch.utils.data import DataLoader, Dataset


    class Encode(Dataset):
        def __init__(self, texts, encoder):
            self.texts, self.encoder = texts, encoder

        def __len__(self):
            return len(self.texts)

        def __getitem__(self, i):
            return self.encoder(self.texts[i]).cuda()


    def main(texts, encoder):
        for batch in DataLoader(Encode(texts, encoder), batch_size=64, num_workers=1):
            torch.save(batch.cpu(), "shard.pt")
    """),
    # tricky-correct: __getitem__ moves nothing (a tensor's .to(dtype) is not a device move)
    _GETITEM.format(ret="image.to(torch.float16), label", workers=4, kwargs="", pin=""),
]
