"""PF324 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- requirements.txt
    transformers=={version}
    deepspeed==0.8.1
    # --- samplers.py
    import random

    from torch.utils.data import Sampler


    class MixtureSampler(Sampler):
        def __init__(self, sizes, counts{params}):
            self.sizes, self.counts = sizes, counts{store}

        def __iter__(self):
            indices, offset = [], 0
            for size, n in zip(self.sizes, self.counts):
                indices += [offset + i for i in random.sample(range(size), min(n, size))]
                offset += size
            return iter(indices{cut})

        def __len__(self):
            return sum(min(n, s) for s, n in zip(self.sizes, self.counts))
    # --- train.py
    import torch.distributed as dist
    from transformers import Trainer, TrainingArguments

    from samplers import MixtureSampler


    class SFTTrainer(Trainer):
        def _get_train_sampler(self):
            {body}


    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, deepspeed="ds.json")
    trainer = SFTTrainer(model=model, args=args, train_dataset=train)
    trainer.train()
    # --- launch
    deepspeed --num_gpus {gpus} train.py
""")

_SPLIT = dict(params=", rank, world_size", store="\n        self.rank, self.world_size = rank, world_size",
              cut="[self.rank::self.world_size]")
_PLAIN = dict(params="", store="", cut="")


def _job(body: str, parts: dict, version: str = "4.26.1", gpus: int = 8) -> str:
    return _JOB.format(body=body, version=version, gpus=gpus, **parts)


PF324_BAD = [
    # held-out-27 (Open-Assistant PR 1869): the mixture sampler yields every index on every DeepSpeed rank
    _job("return MixtureSampler([1000, 500], [800, 400])  # warning: PF324", _PLAIN),
    # no sampler at all: the DataLoader walks the whole dataset on every rank
    _job("return None  # warning: PF324", _PLAIN),
]

PF324_GOOD = [
    # the fix: the sampler keeps this rank's share
    _job("return MixtureSampler([1000, 500], [800, 400], rank=dist.get_rank(), world_size=dist.get_world_size())",
         _SPLIT),
    # tricky: the same override on a release whose Trainer prepares the loader with Accelerate
    _job("return MixtureSampler([1000, 500], [800, 400])", _PLAIN, version="4.36.2"),
    # tricky: one process, and an override that delegates to the Trainer's own sampler
    _job("return MixtureSampler([1000, 500], [800, 400])", _PLAIN, gpus=1),
    _job("return super()._get_train_sampler() if self.args.world_size > 1 else MixtureSampler([10], [10])",
         _PLAIN),
]
