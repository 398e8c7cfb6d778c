"""PF389 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # apex issue 109: the segmentation model is wrapped, then its BatchNorm layers are converted
    dedent("""
    import os

    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def build(net):
        rank = int(os.environ["LOCAL_RANK"])
        model = DDP(net.cuda(rank), device_ids=[rank])
        model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)  # error: PF389
        return model
    """),
    # the conversion applied to the wrapper itself
    dedent("""
    import torch.nn as nn


    def wrap(net, rank):
        return nn.SyncBatchNorm.convert_sync_batchnorm(  # error: PF389
            nn.parallel.DistributedDataParallel(net, device_ids=[rank]))
    """),
]

GOOD = [
    # the fix: convert, then wrap
    dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def build(net, rank):
        model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(net).cuda(rank)
        model = DDP(model, device_ids=[rank])
        return model
    """),
    # tricky: the name held a DDP wrapper earlier but was rebound to the bare module before converting
    dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def rebuild(model, rank, sync_bn):
        model = DDP(model, device_ids=[rank])
        model = model.module
        if sync_bn:
            model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)
        return DDP(model, device_ids=[rank])
    """),
]
