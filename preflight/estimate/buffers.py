"""Non-parameter buffers a model registers that a measurement of allocated memory counts.

Buffers are tensors of the module (``register_buffer``), allocated on the GPU with the model
and alive for the whole job: ``torch.cuda.max_memory_allocated`` counts them like weights.
Most models' buffers are a few kilobytes (``position_ids``, rotary ``inv_freq``); the ones
below scale with the context length and the depth, and were read in the transformers wheels
named (``models/gpt_neox/modeling_gpt_neox.py``; ``calibration/buffers.py`` re-counts them
from the wheels' own modules):

- **GPT-NeoX before transformers 4.49**: every attention layer registers its causal mask,
  ``torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool))`` (``bias``,
  ``_init_bias``): ``max_position_embeddings ** 2`` bytes per layer (4 MiB per layer for the
  Pythia models' 2048; 24 layers of Pythia-410m: 100.7 MB). Read in 4.42.0, 4.44.0, 4.45.0,
  4.47.0, 4.48.0 (present) and 4.49.0 (gone: the modular rewrite builds the mask per call).
- **GPT-NeoX before transformers 4.45**: every attention layer also keeps its own rotary
  tables, ``cos_cached`` and ``sin_cached`` of ``max_position_embeddings x rotary_ndims``
  (``rotary_ndims = head_dim * rotary_pct``) in fp32 (built from ``inv_freq``, which is
  ``.float()``: ``torch_dtype=float16`` does not cast them). Read in 4.42.0 and 4.44.0
  (present) and 4.45.0 (gone: one ``inv_freq`` per layer).

- **GPT-2 before transformers 5.2**: every ``GPT2Attention`` registers the same kind of causal
  mask, ``torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool))`` (``bias``,
  non-persistent, ``max_positions = max_position_embeddings``, i.e. ``n_positions``): 1 MiB per
  layer for GPT-2's 1024 positions (36 layers of gpt2-large: 37.7 MB), besides a scalar
  ``masked_bias`` (gone in 5.0). Read in 4.42.0, 4.46.0, 4.48.0, 4.50.0, 4.52.0, 4.54.0,
  4.56.0, 4.57.0, 5.0.0 and 5.1.0 (present) and 5.2.0, 5.5.0, 5.10.0 ... 5.24.0 (gone).

- **Per-layer rotary tables of Llama, Mistral, Mixtral, Qwen2 and Qwen2-MoE** in the releases
  listed in ``preflight/estimate/rotary_tables.py`` (est49 found Mistral 4.34-4.36's, est50
  read the other families and releases): ``num_layers x 2 x max_position_embeddings x
  head_dim`` in the load dtype (fp32 for Llama 4.28-4.30).

A transformers version the input does not know counts as the latest (no such buffer); the
interval's upper end covers the older layout (``terms.unknown_alternatives``).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.estimate.rotary_tables import remote_code, rotary_table_bytes

#: Versions from which each buffer is gone (read in the wheels, see the module docstring).
GPT_NEOX_MASK_BUFFER_UNTIL = (4, 49)
GPT_NEOX_ROTARY_CACHE_UNTIL = (4, 45)
GPT2_MASK_BUFFER_UNTIL = (5, 2)
#: Pythia's and GPTNeoXConfig's default share of the head that rotary embeddings cover.
GPT_NEOX_ROTARY_PCT = 0.25


def _minor(version: Optional[str]) -> Optional[tuple[int, int]]:
    m = re.match(r"\s*(\d+)\.(\d+)", str(version or ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def gpt_neox_legacy(inp: Any, arch: Any) -> bool:
    """The job runs transformers' GPT-NeoX in a version that has the per-layer mask buffer (not a
    repository's own modeling file, ``auto_map``: est71, ChatGLM-6B's ``modeling_chatglm.py``
    registers no mask buffer)."""
    version = _minor(getattr(inp, "transformers_version", None))
    return (getattr(inp, "model_impl", "transformers") == "transformers" and not remote_code(arch)
            and str(getattr(arch, "model_type", "")) == "gpt_neox"
            and version is not None and version < GPT_NEOX_MASK_BUFFER_UNTIL)


def gpt2_legacy(inp: Any, arch: Any) -> bool:
    """The job runs transformers' GPT-2 in a version that has the per-layer mask buffer."""
    version = _minor(getattr(inp, "transformers_version", None))
    return (getattr(inp, "model_impl", "transformers") == "transformers" and not remote_code(arch)
            and str(getattr(arch, "model_type", "")) == "gpt2"
            and version is not None and version < GPT2_MASK_BUFFER_UNTIL)


def model_buffer_bytes(inp: Any, arch: Any) -> int:
    """Bytes of the context-sized buffers the job's model registers (see the module docstring);
    0 for every model and version not listed there."""
    rotary = rotary_table_bytes(inp, arch)
    if rotary:
        return rotary
    if arch is not None and gpt2_legacy(inp, arch):
        max_pos = int(arch.max_position or 0)
        return int(arch.num_layers) * max_pos * max_pos     # bool causal mask per layer
    if arch is None or not gpt_neox_legacy(inp, arch):
        return 0
    version = _minor(inp.transformers_version)
    layers = int(arch.num_layers)
    max_pos = int(arch.max_position or 0)
    total = layers * max_pos * max_pos                      # bool causal mask per layer
    if version is not None and version < GPT_NEOX_ROTARY_CACHE_UNTIL:
        pct = float(arch.extra.get("rotary_pct", GPT_NEOX_ROTARY_PCT))
        rotary_ndims = int(int(arch.head_dim) * pct)
        total += layers * 2 * max_pos * rotary_ndims * 4    # fp32 cos_cached + sin_cached
    return total
