"""PF437 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

PF437_BAD = [
    # LongLive issue 71: the clock times the rank
    textwrap.dedent("""
    import time

    from torch.utils.data import DataLoader, DistributedSampler


    class Trainer:
        def __init__(self, config, dataset, global_rank):
            self.global_rank = global_rank
            sampler = DistributedSampler(dataset, shuffle=True, drop_last=True,
                                         seed=int(time.time()) * self.global_rank)  # error: PF437
            self.loader = DataLoader(dataset, batch_size=config.batch_size, sampler=sampler)
"""),
    # through one assignment: the seed plus the rank
    textwrap.dedent("""
    import torch.distributed as dist
    from torch.utils.data.distributed import DistributedSampler


    def build(dataset, args):
        seed = args.seed + dist.get_rank()
        return DistributedSampler(dataset, shuffle=True, seed=seed)  # error: PF437
"""),
]

PF437_GOOD = [
    # the fix: one seed for every rank
    textwrap.dedent("""
    from torch.utils.data import DataLoader, DistributedSampler


    class Trainer:
        def __init__(self, config, dataset, global_rank):
            sampler = DistributedSampler(dataset, shuffle=True, drop_last=True, seed=config.seed)
            self.loader = DataLoader(dataset, batch_size=config.batch_size, sampler=sampler)
"""),
    # a per-rank seed for the model's randomness is fine; the sampler's is shared
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.utils.data.distributed import DistributedSampler


    def build(dataset, args):
        torch.manual_seed(args.seed + dist.get_rank())
        return DistributedSampler(dataset, num_replicas=dist.get_world_size(), rank=dist.get_rank(),
                                  shuffle=True, seed=args.seed)
"""),
]
