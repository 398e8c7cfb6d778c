"""FSDP's unit granularity: what one gathered unit holds when the auto-wrap policy wraps every
module, not every decoder block (est54).

FSDP1 all-gathers one unit's parameters before the unit runs and frees them after it
(``FULL_SHARD``), keeping at most the running unit and the one prefetched (forward prefetch
and ``BackwardPrefetch.BACKWARD_PRE``: ``constants.FSDP_UNSHARDED_UNITS``); a unit's unsharded
gradient lives until its reduce-scatter. The estimate's default unit is a decoder block
(``transformer_auto_wrap_policy`` with the block class, what Accelerate, the HF Trainer,
Lightning and torchtune wrap), with the root unit (embeddings, LM head, final norm) gathered
through forward and backward (``terms_fsdp.fsdp_root_unsharded``).

A policy that returns True for every module (``fsdp_wrap="module"``) makes each module with
parameters its own unit: torch ``distributed/fsdp/wrap.py`` ``_recursive_wrap`` asks the policy
for every child (``recurse=True``, descend) and then wraps the child (``recurse=False``), so
every ``Linear``, norm and embedding becomes an FSDP instance managing only its own weights, and
the root keeps none. Lightning Thunder's ``benchmark_litgpt.py`` (6a627c0, 2024-06-09; the
default ``--bucketing_mode none``) passes ``zero_bucket_wrap_policy = lambda module, recurse,
nonwrapped_numel: nonwrapped_numel >= 0``: True for every module. Then a gathered unit is one
module: the largest is the LM head, the embedding table or the widest linear of a block.
"""

from __future__ import annotations

from typing import Any

#: the wrap policies the estimate knows: ``block`` (one unit per decoder block, the root keeps
#: the embeddings, LM head and final norm), ``module`` (every module with parameters its own unit)
FSDP_WRAPS = ("block", "module")


def largest_module(arch: Any, prm: Any, impl: str) -> float:
    """Parameters of the largest single module FSDP gathers under per-module wrapping: the
    embedding table, the LM head, or a block's widest linear (litgpt's fused ``attn`` projects
    q, k and v at once; transformers' and torchtune's q/k/v are separate)."""
    h = int(getattr(arch, "hidden_size", 0) or 0)
    q_dim = int(arch.num_heads * arch.head_dim) if getattr(arch, "num_heads", 0) else h
    kv_dim = int(arch.num_kv_heads * arch.head_dim) if getattr(arch, "num_kv_heads", 0) else h
    qkv = h * (q_dim + 2 * kv_dim) if impl == "litgpt" else h * max(q_dim, kv_dim)
    width = int(getattr(arch, "moe_intermediate_size", 0) or 0) if getattr(arch, "num_experts", 0) else 0
    mlp = h * max(int(getattr(arch, "intermediate_size", 0) or 0), width)
    return float(max(float(prm.embeddings), float(prm.lm_head), float(qkv), float(mlp)))
