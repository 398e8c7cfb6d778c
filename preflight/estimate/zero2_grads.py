"""ZeRO-2's gradient partition buffer is allocated at the first bucket reduction of backward (est70).

DeepSpeed's ``DeepSpeedZeroOptimizer`` (``runtime/zero/stage_1_and_2.py``, v0.19.2, read in the
mirror of deepspeedai/DeepSpeed at that tag) with ``contiguous_gradients`` (the default) and stage 2
(``partition_gradients``), optimizer on the GPU:

- each gradient hook adds the parameter to the reduce bucket; when the next one would overflow it
  (``bucket.elements + param.numel() > self.reduce_bucket_size``, line 1096) the bucket is reduced
  (``reduce_ipg_grads``, line 1098). A parameter larger than the bucket is reduced at the next
  hook (``extra_large_param_to_reduce``, lines 1115-1116 and 1559-1573);
- ``reduce_ipg_grads`` calls ``copy_grads_in_partition`` for every bucket parameter that lies in
  the rank's partition (lines 1602-1611), and its first call allocates ``grads_in_partition``: one
  buffer of every gradient of the rank's partition, in the model dtype (lines 1530-1540). It lives
  until the optimizer step frees the averaged gradients that view it (``_release_ipg_buffers``
  drops the name at the end of backward, line 925; the views keep the storage).

The flat partition order is the parameters' order, so the last rank's partition ends with the LM
head, whose gradient is the first one backward makes. When the head and one block's parameters
already fill a bucket (Llama-3.1-8B: a 525 M-element head against the default 5e8), the first
reduction comes before the last block's backward is over: the whole partition buffer is allocated
beside nearly all the saved activations, at the backward peak of the worst rank. With a smaller
head the first reduction comes after more blocks, whose activations are gone by then, and the end
of backward (where the estimate already charges the partition) stays the larger point: nothing is
added. Not counted: ZeRO-1 (gradients are not partitioned during backward), optimizer offload
(the partition goes to host memory through ``copy_grads_in_partition``'s offload branch), a frozen
head or LoRA (their buckets fill later).
"""

from __future__ import annotations

from typing import Any

from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput


def partition_at_backward_start(inp: EstimateInput, prm: Any, full: bool, partition_bytes: float) -> float:
    """Bytes of ZeRO-2's gradient partition buffer alive at the start of backward (the worst
    rank's), or 0 when its first reduction comes later (module docstring)."""
    if (inp.mode != "train" or inp.zero_stage != 2 or inp.offload_optimizer or not inp.contiguous_gradients
            or not full or inp.fsdp):
        return 0.0
    bucket = float(inp.reduce_bucket_size or C.DS_REDUCE_BUCKET)
    head = float(prm.lm_head)
    if head <= 0 or head + float(prm.layer) < bucket:
        return 0.0
    return float(partition_bytes)
