"""The step temporaries of torch's AdamW when what trains holds two dtypes (est42).

A LoRA job whose vocabulary tables train beside the adapters (``trained_embeddings.py``) hands
the optimizer tensors of two dtypes: PEFT's adapters in fp32 over a 16-bit base and the tables
in the dtype the model stores them (PEFT's ``modules_to_save`` deep copy of a bf16 table is
bf16; its AdamW states are ``zeros_like(param)``, bf16 too). torch's AdamW makes its step
temporaries per dtype, not in one dtype for the whole list:

- foreach (the default on CUDA from torch 2.0): ``_multi_tensor_adamw`` splits the parameter
  list with ``_group_tensors_by_device_and_dtype`` and runs one iteration per (device, dtype)
  group (torch 2.0-era ``torch/optim/adamw.py``, read in a vendored copy of that file, not at
  pytorch's v2.0.1 tag: ``for (device_params, ..., device_exp_avg_sqs, ...) in
  grouped_tensors.values():``). Each iteration makes its intermediates in the group's
  dtype: ``exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)`` and, before torch 2.1,
  ``denom = torch._foreach_add(exp_avg_sq_sqrt, eps)`` (two lists:
  ``zero_client_optim.foreach_adamw_intermediates``). The names are plain locals of the loop,
  so the first group's lists stay referenced until the next iteration rebinds them: the second
  group's ``_foreach_sqrt`` allocates while both of the first group's lists are alive (``2a +
  b`` for two intermediates of ``a`` and ``b`` bytes), and its ``_foreach_add`` while the first
  group's ``denom`` still is (``a + 2b``). In general ``a + b + (k - 1) x max(a, b)`` with
  ``k`` intermediates; symmetric, so the order of the groups does not matter. This holds within
  one parameter group (the Hugging Face Trainer puts the adapters and the tables' weights in its
  weight-decay group); groups stepped by separate ``adamw()`` calls free their lists in between.
- for-loop (``_single_tensor_adamw``, torch before 2.0 or ``foreach=False``): per parameter
  ``denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)``, two temporaries the size
  of that parameter in its own dtype; the largest (parameter x dtype) sets the peak.

``terms.optimizer_temporaries`` charges the whole trainable set at the adapters' state dtype
(fp32): for a 1.8B model with both 151,936 x 2,048 tables in bf16 that is twice the tables'
share. This module recomputes the term from the two groups when the tables' dtype differs
from the adapters' state dtype; otherwise the existing term stands.
"""

from __future__ import annotations

from typing import Any, Optional


def grouped_foreach_peak(group_bytes: list[float], intermediates: int) -> float:
    """Peak bytes of the foreach intermediates over dtype groups stepped one after another
    (``group_bytes``: one parameter-list-sized intermediate of each group, in step order)."""
    k = max(int(intermediates), 1)
    peak, prev = 0.0, 0.0
    for b in group_bytes:
        if b <= 0:
            continue
        peak = max(peak, prev + b + (k - 1) * max(prev, b))
        prev = b
    return peak


def mixed_dtype_temporaries(inp: Any, adapters: float, adapter_state_bytes: float,
                            table_params: float, table_bytes: float, largest_table: float,
                            largest_adapter: float) -> Optional[float]:
    """AdamW step temporaries (bytes) of adapters (``adapters`` elements, states of
    ``adapter_state_bytes``) beside trained tables (``table_params`` elements stored and
    stepped in ``table_bytes``); None when the existing single-dtype term applies (no tables,
    one dtype, another optimizer, or ZeRO, whose step runs on its own flat fp32 partitions)."""
    if (inp.optimizer != "adamw" or inp.zero_stage or table_params <= 0
            or table_bytes == adapter_state_bytes):
        return None
    from preflight.estimate.zero_client_optim import _foreach, foreach_adamw_intermediates

    if _foreach(inp):
        groups = [table_params * table_bytes, adapters * adapter_state_bytes]
        return grouped_foreach_peak(groups, foreach_adamw_intermediates(inp))
    return 2.0 * max(largest_table * table_bytes, largest_adapter * adapter_state_bytes)


def lora_largest(inp: Any, arch: Any) -> float:
    """Elements of the largest LoRA matrix (rank x the widest projection side)."""
    wide = max(int(getattr(arch, "hidden_size", 0) or 0), int(getattr(arch, "intermediate_size", 0) or 0))
    return float(int(inp.lora_r or 0) * wide)
