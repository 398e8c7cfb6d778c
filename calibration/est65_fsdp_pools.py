"""held-out-13's card-edge row with FSDP's gradients in their own stream pool (est65, issue 17).

est62 (``calibration/est62_card_edge.py``) replayed the Liger-Kernel HF example's step shape (Llama-3-8B shapes, full
fine-tune, bf16, checkpointing, SDPA, 48 x 512) through the simulator of the caching allocator with every tensor in
one pool, and found that it needs 13.0 GiB above its allocated peak (the estimator charges 12.3 GiB of
``fragmentation``); the real job ran under FSDP with at most 11.0 GiB above its tensors. One thing that replay leaves
out is where FSDP puts the gradients: FSDP1's post-backward hook reduce-scatters each unit's gradient into
``new_sharded_grad = torch.empty_like(chunks[0])`` allocated under ``state._post_backward_stream``, and that tensor
becomes ``.grad`` (``terms_fsdp.fsdp_offload_grad_shards``' reading); PyTorch's caching allocator serves a request
only from blocks cached under the stream current at their allocation (measured on a GPU by est44,
``calibration/stream_pool_check.py``). So under FSDP the gradients never split the compute stream's freed logits
segments, which is what leaves the single-pool replay's remainders unusable by the next step's logits.

This script records the same step (``est62_card_edge._record``) and replays it twice through the simulator: as est62
(one pool), and with every block a micro-step allocates and does not free within it (the gradients: the only
tensors a forward+backward leaves alive) in a second pool of the same allocator, whose wholly free segments
``release_cached_blocks`` also returns. For each it searches the smallest capacity at which the run completes (to
16 MiB), over est62's sequence and over one whose step after the optimizer's starts again with the first micro-step
(``next_step_*``: the gradients allocated again after ``zero_grad(set_to_none=True)``, with the AdamW states now
resident; est62's repeats of the second micro-step allocate no gradient). Not modelled: FSDP's sharding (the parameters, gradients and AdamW states here are the whole model's, as in
est62's replay), the all-gather stream's pool, and the unsharded gradient each unit holds on the compute stream until
its reduce-scatter (a transient of one unit).

Usage (imports torch and transformers; calibration only)::

    python -m calibration.est65_fsdp_pools --out calibration/data/est65_fsdp_pools.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

GIB = 1 << 30
#: (layers, batch, loss layout), est62's cases for the row's shape
CASES = [(2, 48, "installed"), (8, 48, "installed"), (32, 48, "installed"), (32, 48, "4.43")]


def _two_pool_allocator(capacity: Optional[int]) -> Any:
    from calibration.caching_allocator import CachingAllocator, _Pool

    class TwoStreamAllocator(CachingAllocator):
        """``CachingAllocator`` with a second stream: its own small and large pools (a block is served
        only to its own stream), one device capacity, and ``release_cached_blocks`` over both."""

        def __init__(self, cap: Optional[int]) -> None:
            super().__init__(cap)
            self.pools = {0: (self.small, self.large), 1: (_Pool(True), _Pool(False))}
            self.stream_of: Dict[int, int] = {}

        def _use(self, stream: int) -> None:
            self.small, self.large = self.pools[stream]

        def _release_cached_blocks(self) -> None:
            current = (self.small, self.large)
            for stream in self.pools:
                self._use(stream)
                super()._release_cached_blocks()
            self.small, self.large = current

        def malloc_on(self, nbytes: int, stream: int) -> Any:
            self._use(stream)
            block = self.malloc(nbytes)
            self.stream_of[id(block)] = stream
            return block

        def free(self, block: Any) -> None:
            self._use(self.stream_of.pop(id(block), 0))
            super().free(block)

    return TwoStreamAllocator(capacity)


def persistent_keys(events: List[Any]) -> Set[Any]:
    """Keys a micro-step allocates and does not free within it (the gradients)."""
    freed = {key for kind, key, _ in events if kind != "a"}
    return {key for kind, key, _ in events if kind == "a" and key not in freed}


def replay(rec: Dict[str, Any], split_grads: bool, capacity: Optional[int] = None, repeats: int = 3,
           regrad: bool = False) -> Dict[str, int]:
    """``fixed_length.replay``'s sequence (load, micro-step 1, micro-step 2, optimizer step, micro-step 2
    ``repeats`` times more); with ``split_grads`` the first micro-step's persistent blocks go to stream 1.
    ``regrad``: after the optimizer step the next step starts again with micro-step 1, which allocates
    the gradients again (``zero_grad(set_to_none=True)`` freed them), then micro-step 2: the steady state
    the job runs in (``fixed_length.replay``'s repeats of micro-step 2 allocate no gradient)."""
    alloc = _two_pool_allocator(capacity)
    grads = persistent_keys(rec["steps"][0]) if split_grads else set()
    live: Dict[Any, Any] = {}
    for kind, key, n in rec["setup"]:
        if kind == "a":
            live[key] = alloc.malloc_on(n, 0)
    tail = [rec["steps"][0], rec["steps"][1]] if regrad else [rec["steps"][1]] * repeats
    seq = [rec["steps"][0], rec["steps"][1], rec["optim"], *tail]
    for i, events in enumerate(seq):
        first = i == 0 or (regrad and i == 3)
        for kind, key, n in events:
            own = (i, key) if i >= 3 else key
            if kind == "a":
                live[own] = alloc.malloc_on(n, 1 if (first and key in grads) else 0)
            elif own in live:
                alloc.free(live.pop(own))
            elif key in live:
                alloc.free(live.pop(key))
    s = alloc.stats
    return {"peak_allocated": s.peak_allocated, "peak_reserved": s.peak_reserved}


def min_capacity(rec: Dict[str, Any], split_grads: bool, regrad: bool = False) -> Dict[str, float]:
    from calibration.caching_allocator import OutOfMemory

    free = replay(rec, split_grads, regrad=regrad)
    lo, hi = free["peak_allocated"], free["peak_reserved"]
    while hi - lo > 16 * 2 ** 20:
        mid = (lo + hi) // 2
        try:
            replay(rec, split_grads, capacity=mid, regrad=regrad)
            hi = mid
        except OutOfMemory:
            lo = mid
    return {"simulated_allocated_gib": round(free["peak_allocated"] / GIB, 3),
            "simulated_reserved_gib": round(free["peak_reserved"] / GIB, 3),
            "min_capacity_gib": round(hi / GIB, 3),
            "needed_excess_gib": round((hi - free["peak_allocated"]) / GIB, 3)}


def main(argv: Optional[List[str]] = None) -> int:
    from calibration.est62_card_edge import _record

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    runs = []
    for layers, batch, loss in CASES:
        t = time.time()
        rec = _record(layers, batch, loss)
        grads = persistent_keys(rec["steps"][0])
        row: Dict[str, Any] = {"layers": layers, "batch": batch, "seq_len": 512, "loss": loss,
                               "persistent_blocks": len(grads),
                               "persistent_gib": round(sum(n for k, key, n in rec["steps"][0]
                                                           if k == "a" and key in grads) / GIB, 3)}
        row["one_pool"] = min_capacity(rec, False)
        row["grads_in_own_pool"] = min_capacity(rec, True)
        row["next_step_one_pool"] = min_capacity(rec, False, regrad=True)
        row["next_step_grads_in_own_pool"] = min_capacity(rec, True, regrad=True)
        row["seconds"] = round(time.time() - t)
        runs.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        doc = {"about": __doc__.split("\n\n")[0], "runs": runs}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
