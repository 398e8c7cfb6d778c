"""Cached blocks left by DDP's start-up broadcast (est23, docs/calibration.md "est23").

``DistributedDataParallel.__init__`` calls ``_sync_module_states``, which gathers EVERY
parameter of the module, frozen ones too (``module.named_parameters()``, no ``requires_grad``
test), and buffers, and hands them to ``dist._broadcast_coalesced`` with 250 MB buckets
(``torch/nn/parallel/distributed.py``, ``_DEFAULT_BUCKET_CAP``-independent
``broadcast_bucket_size``). ``broadcast_coalesced`` (``torch/csrc/distributed/c10d/comm.cpp``)
flattens each bucket into a new tensor (``flatten_dense_tensors``), broadcasts it, unflattens it
into the parameters and drops it, with at most two buckets in flight. Each flat copy is used by
NCCL on its own stream, so its block returns to the caching allocator only once that stream's
work is done; when the host runs ahead of the GPU, later buckets cannot reuse the earlier
blocks and take new segments. The allocator keeps them (reserved, reusable by training,
released before an out-of-memory error).

How many bucket copies are pending at once depends on how far the host runs ahead, which the
plan cannot know: from two buckets (the GPU keeps up) to every parameter byte. So the term is
in the interval's top only (``Estimate.reclaimable``): 0 in the point, up to the bytes of all
stored parameters in reserved memory. DeepSpeed broadcasts each parameter in place
(``DeepSpeedEngine._broadcast_model``: ``dist.broadcast(p.data, ...)``, no flat copy) and FSDP
syncs only with ``sync_module_states=True``, so neither is charged.

Not verified on a GPU. The row that led here: held-out-12's LoRA on two GPUs under DDP reads
27.5 GiB reserved against 18 for its ZeRO-2 twin (same data, same model); peft#655 reports a
LoRA job using 20 GB more per GPU under DDP than on one GPU on 80 GB cards, and not on 48 GB
cards (memory the allocator gives back under pressure).
"""

from __future__ import annotations

from typing import Any


def applies(inp: Any) -> bool:
    """Plain DDP training on more than one process (no ZeRO, no FSDP)."""
    return (inp.mode == "train" and (inp.world_size or 1) > 1 and not inp.zero_stage
            and not inp.fsdp)


def cache_top(inp: Any, stored_param_bytes: float) -> float:
    """Top of the cached bytes the start-up broadcast can leave: every stored parameter byte."""
    return float(stored_param_bytes) if applies(inp) else 0.0
