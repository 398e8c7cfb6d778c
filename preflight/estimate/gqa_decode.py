"""Grouped-query attention while decoding with a KV cache: the cached keys and values expanded to
every query head for one layer's eager attention (est63).

transformers' eager attention (``eager_attention_forward`` from 4.48, each model's ``forward``
before: ``key_states = repeat_kv(key_states, self.num_key_value_groups)`` and the same for the
values) and hand-written GQA blocks (LLMs-from-scratch ``ch04/04_gqa/gpt_with_kv_gqa.py``:
``keys = keys.repeat_interleave(self.group_size, dim=1)``, the values likewise) turn each layer's
cache of ``kv_heads`` heads into ``heads`` heads before the score matmul. ``repeat_kv`` is
``expand`` then ``reshape`` of a non-contiguous view: a copy. During a decoding step one layer's
expanded keys and values exist together: ``2 x context x heads x head_dim`` elements of the cache
dtype, freed when the layer's attention returns.

That copy is made after the layer's cache grew by ``torch.cat`` and the old tensor was dropped
(``DynamicCache.update`` reassigns the list entry; the book's block reassigns ``self.cache_k``), so
it does not add to the one-layer cat copy of :func:`inference.decode_cache_copy`: the larger of the
two is the step's transient. With legacy tuple caches (before transformers 4.42) the previous
step's whole cache is held through the forward, and the expansion adds to it.

Not charged: SDPA (transformers may pass ``enable_gqa`` instead of expanding, by release and torch)
and FlashAttention (native GQA); models without grouped heads (``kv_heads == heads``: no copy).
"""

from __future__ import annotations

from typing import Any


def repeated_kv_bytes(inp: Any, arch: Any, kernel: str, batch: int, context: int, comp_bytes: float) -> float:
    """Bytes of one layer's keys and values expanded to all query heads in the last decoding step
    (``context - 2`` cached positions, as :func:`inference.decode_cache_copy` reads them); 0 when
    nothing is expanded."""
    if kernel != "eager" or int(getattr(inp, "max_new_tokens", 0) or 0) < 2:
        return 0.0
    if getattr(inp, "use_cache", None) is False:    # every step recomputes the sequence, no cache
        return 0.0
    heads, kv_heads = int(arch.num_heads), int(arch.num_kv_heads or arch.num_heads)
    if kv_heads >= heads or kv_heads <= 0:
        return 0.0
    return 2.0 * batch * max(context - 2, 0) * heads * arch.head_dim * comp_bytes
