"""PF621 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF621`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF621_BAD = [
    # a local lambda closes over the tokenizer's pad id; the script forces spawn
    textwrap.dedent("""
    import torch.multiprocessing as mp
    from torch.utils.data import DataLoader


    def pad_collate(batch, pad_id):
        return batch


    def build_loader(ds, tok):
        return DataLoader(
            ds,
            batch_size=8,
            num_workers=4,
            collate_fn=lambda b: pad_collate(b, tok.pad_token_id),  # error: PF621
        )


    if __name__ == "__main__":
        mp.set_start_method("spawn", force=True)
        build_loader([], None)
"""),
    # a nested worker_init_fn with the loader's own forkserver context
    textwrap.dedent("""
    import multiprocessing

    import numpy as np
    from torch.utils.data import DataLoader


    def make_loader(ds, seed, workers=8):
        def init_worker(worker_id):
            np.random.seed(seed + worker_id)

        ctx = multiprocessing.get_context("forkserver")
        return DataLoader(ds, batch_size=32, num_workers=workers, worker_init_fn=init_worker,  # error: PF621
                          multiprocessing_context=ctx)
"""),
]

PF621_GOOD = [
    # the fix: a module-level function bound with functools.partial
    textwrap.dedent("""
    import functools

    import torch.multiprocessing as mp
    from torch.utils.data import DataLoader


    def pad_collate(batch, pad_id):
        return batch


    def build_loader(ds, tok):
        return DataLoader(ds, batch_size=8, num_workers=4,
                          collate_fn=functools.partial(pad_collate, pad_id=tok.pad_token_id))


    if __name__ == "__main__":
        mp.set_start_method("spawn", force=True)
"""),
    # tricky-correct: a lambda under the default fork start method, and one with no workers under spawn
    textwrap.dedent("""
    import multiprocessing

    from torch.utils.data import DataLoader


    def loaders(train_ds, val_ds, pad):
        train = DataLoader(train_ds, num_workers=4, collate_fn=lambda b: pad(b))
        val = DataLoader(val_ds, num_workers=0, collate_fn=lambda b: pad(b),
                         multiprocessing_context="spawn")
        return train, val


    if __name__ == "__main__":
        multiprocessing.set_start_method("fork")
"""),
    # tricky-correct: the name is rebound to a module-level function before the loader is built
    textwrap.dedent("""
    import torch.multiprocessing as mp
    from torch.utils.data import DataLoader, default_collate


    def build(ds):
        collate = lambda b: b
        collate = default_collate
        return DataLoader(ds, num_workers=2, collate_fn=collate)


    mp.set_start_method("spawn")
"""),
]
