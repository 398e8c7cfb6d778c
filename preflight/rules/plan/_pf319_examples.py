"""PF319 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_DATA = textwrap.dedent("""
    # --- stream_data.py
    import glob

    import torch
    from torch.utils.data import IterableDataset


    class StreamingCorpus(IterableDataset):
        '''Streams pre-tokenised lines from the shard files (a docstring's words split nothing).'''

        def __init__(self, pattern, seq_len{params}):
            self.files = sorted(glob.glob(pattern))
            self.seq_len = seq_len{store}

        def __iter__(self):
            n = 0
            for path in self.files:
                with open(path, encoding="utf-8") as f:
                    for line in f:
                        n += 1{skip}
                        yield torch.tensor([int(t) for t in line.split()][: self.seq_len])
""")

_TRAIN = textwrap.dedent("""
    # --- pretrain.py
    import deepspeed
    import torch.distributed as dist
    from torch.utils.data import DataLoader

    from stream_data import StreamingCorpus

    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    loader = DataLoader(StreamingCorpus("data/*.txt", 128{args}), batch_size=64){pin}
    for ids in loader:
        loss = engine(ids.to(engine.device))
        engine.backward(loss)
        engine.step()
    # --- launch
    deepspeed --num_gpus {gpus} pretrain.py --deepspeed --deepspeed_config ds_config.json
""")

_SPLIT = dict(params=", rank, world_size", store="\n        self.rank, self.world_size = rank, world_size",
              skip="\n                    if n % self.world_size != self.rank:\n                        continue",
              args=", rank=dist.get_rank(), world_size=dist.get_world_size()")
_PLAIN = dict(params="", store="", skip="", args="")


def _job(parts: dict, gpus: int = 8, pin: str = "") -> str:
    return _DATA.format(**parts) + _TRAIN.format(args=parts["args"], gpus=gpus, pin=pin)


BAD_EXAMPLES = [
    # held-out-27 (DeepSpeed issue 1018): the stream yields the same lines on every one of 8 ranks
    _job(_PLAIN, pin="  # warning: PF319"),
    # torchrun with a plain DDP loop; the dataset built on its own line
    textwrap.dedent("""
    # --- train.py
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, IterableDataset


    class Lines(IterableDataset):
        def __init__(self, path):
            self.path = path

        def __iter__(self):
            with open(self.path) as f:
                for line in f:
                    yield encode(line)


    model = DDP(build().cuda())
    data = Lines("corpus.txt")
    loader = DataLoader(data, batch_size=32)  # warning: PF319
    for batch in loader:
        model(batch.cuda()).loss.backward()
        opt.step()
        opt.zero_grad()
    # --- launch
    torchrun --nproc_per_node 4 train.py
    """),
]

GOOD_EXAMPLES = [
    # the fix: each rank keeps every world_size-th line
    _job(_SPLIT),
    # tricky-correct: one process (nothing to split)
    _job(_PLAIN, gpus=1),
    # tricky-correct: the stream makes its samples up (random data per rank), and a map-style dataset
    # (PF201's business, not this rule's)
    textwrap.dedent("""
    # --- train.py
    import torch
    from torch.utils.data import DataLoader, Dataset, IterableDataset


    class Noise(IterableDataset):
        def __iter__(self):
            while True:
                yield torch.randn(16)


    class Rows(Dataset):
        def __init__(self, rows):
            self.rows = rows

        def __len__(self):
            return len(self.rows)

        def __getitem__(self, i):
            return self.rows[i]


    for x in DataLoader(Noise(), batch_size=8):
        model(x.cuda()).sum().backward()
    # --- launch
    torchrun --nproc_per_node 4 train.py
    """),
    # tricky-correct: the loader goes through accelerator.prepare (accelerate shards or dispatches it)
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, IterableDataset


    class Lines(IterableDataset):
        def __init__(self, path):
            self.path = path

        def __iter__(self):
            with open(self.path) as f:
                for line in f:
                    yield encode(line)


    accelerator = Accelerator()
    loader = DataLoader(Lines("corpus.txt"), batch_size=32)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for batch in loader:
        accelerator.backward(model(batch).loss)
    # --- launch
    accelerate launch --num_processes 4 train.py
    """),
]
