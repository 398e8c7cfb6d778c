"""How many positions a sliding-window model's KV cache holds in each generation phase
(est49, held-out-23's Mistral-7B FlashAttention-2 rows; issue 17).

Mistral's config carries ``sliding_window`` (4,096 for Mistral-7B-v0.1), but whether the cache
is cut to it, and when, depends on the transformers release and the attention path. Read in the
released wheels (``transformers/models/mistral/modeling_mistral.py``):

- **4.34.0 / 4.35.2, FlashAttention-2** (``MistralFlashAttention2.forward``, 4.34.0 lines
  372-398, 4.35.2 lines 362-388): ``if past_key_value is not None:`` and ``kv_seq_len >
  self.config.sliding_window``, the past keys and values are sliced to the last
  ``sliding_window - 1`` positions (``past_key[:, :, slicing_tokens:, :].contiguous()``) before
  the new position is concatenated. The prompt's forward has no past, so each layer returns its
  whole prompt (``past_key_value = (key_states, value_states)``): the cache holds every prompt
  position through the prefill and the head. The first decoding forward builds a cache of at
  most ``sliding_window`` positions, while ``generate`` still references the prompt's whole
  cache (legacy tuples; ``inputs.EstimateInput.legacy_kv_cache``); later steps stay at the
  window.
- **4.34.0 / 4.35.2, eager** (``MistralAttention.forward``, 4.34.0 lines 275-280): a plain
  ``torch.cat`` with the past, never sliced; the window lives in the attention mask only. The
  cache grows to prompt plus new tokens.
- **4.36.0**: the FlashAttention-2 path slices a ``DynamicCache`` as a tuple and then calls
  ``past_key_value.update`` on the tuple (lines 386-410); not modelled here. Other releases
  were not read: they keep the estimator's earlier reading (the cache capped at the window in
  the decoding phases), unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from preflight.estimate.inputs import EstimateInput

#: model types whose transformers code is the one read above
WINDOW_SLICING_TYPES = frozenset({"mistral"})
#: the releases read: Mistral arrived in 4.34; 4.36 moved the cache to ``DynamicCache``
READ_RELEASES = ((4, 34), (4, 36))


@dataclass(frozen=True)
class CachePositions:
    """Positions per sequence (every layer) of the KV cache in each generation phase."""

    #: once the prompt's forward is done (prefill, the head over the prompt)
    prompt: int
    #: the cache the first decoding forward builds (the prompt's cache is still referenced)
    first: int
    #: at the last decoding forward
    context: int
    #: why the counts differ from prompt / prompt + 1 / prompt + new tokens, if they do
    note: str = ""


def _release(inp: EstimateInput) -> Optional[tuple[int, int]]:
    m = re.match(r"\s*(\d+)\.(\d+)", str(inp.transformers_version or ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def cache_positions(inp: EstimateInput, arch: Any, seq: int) -> CachePositions:
    """The cache's positions in each phase of ``generate`` for a ``seq``-token prompt."""
    full = CachePositions(prompt=seq, first=seq + 1, context=seq + inp.max_new_tokens)
    window = getattr(arch, "sliding_window", None)
    if not window or str(getattr(arch, "model_type", "")) not in WINDOW_SLICING_TYPES:
        return full
    release = _release(inp)
    read = (inp.model_impl == "transformers" and release is not None
            and READ_RELEASES[0] <= release < READ_RELEASES[1])
    if not read:
        # releases not read: the earlier reading, the cache capped at the window in decoding
        context = min(full.context, window)
        return CachePositions(prompt=min(seq, context), first=seq + 1, context=context,
                              note=f"sliding window {window}: the KV cache keeps at most {window} "
                                   "positions")
    if full.context <= window:
        return full
    if inp.attention != "flash":
        return CachePositions(full.prompt, full.first, full.context,
                              note=f"transformers {inp.transformers_version} {inp.attention} attention: "
                                   f"the {window}-position window is in the mask only, the KV cache "
                                   "keeps every position")
    return CachePositions(
        prompt=seq, first=min(seq + 1, window), context=min(full.context, window),
        note=f"transformers {inp.transformers_version} FlashAttention-2: the prompt's cache holds all "
             f"{seq} positions; decoding slices it to the {window}-position window")
