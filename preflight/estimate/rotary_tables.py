"""Per-layer rotary ``cos_cached`` / ``sin_cached`` tables of transformers' Llama-style models.

In the releases below every attention layer builds its own rotary-embedding module
(``self.rotary_emb = LlamaRotaryEmbedding(self.head_dim, max_position_embeddings=...)`` inside
``LlamaAttention.__init__``), and that module registers two non-persistent buffers of
``max_position_embeddings x head_dim`` when it is built. They are module buffers: ``.to(device)``,
``device_map`` and the DeepSpeed/FSDP wrappers put them on the GPU with the model, where they stay
for the whole job (``max_memory_allocated`` counts them like weights). Read in the wheels
(``models/<family>/modeling_<family>.py``; docs/calibration.md, est50):

- **Llama 4.28-4.30** (read 4.28.0, 4.29.2, 4.30.2): ``[1, 1, max, dim]`` built from the fp32
  ``inv_freq`` with no cast, so **fp32** whatever ``torch_dtype`` the model is loaded in.
- **Llama 4.31-4.37** (read 4.31.0, 4.32.0, 4.33.0, 4.34.0, 4.35.2, 4.36.0, 4.36.2, 4.37.2):
  ``_set_cos_sin_cache(..., dtype=torch.get_default_dtype())``, ``.to(dtype)``: the load dtype
  (``from_pretrained(torch_dtype=...)`` sets the default dtype while the model is built);
  ``[1, 1, max, dim]`` before 4.36, ``[max, dim]`` from 4.36.
- **Llama 4.38.0 and 4.38.1**: no table at build time (``forward`` computes cos/sin per call and
  keeps the last call's as ``_cos_cached``, an activation-sized reference, not counted here).
- **Llama 4.38.2-4.40** (read 4.38.2, 4.39.0, 4.39.3, 4.40.0, 4.40.2): "For BC" buffers
  ``_cos_cached`` / ``_sin_cached`` of ``[max, dim]`` in ``torch.get_default_dtype()``.
  Gone from 4.41.0 (read 4.41.0, 4.41.2, 4.42.0, 4.42.4, 4.43.3, 4.44.x; from 4.43 the shared
  rotary module sits on the model and keeps only ``inv_freq``).
- **Mistral 4.34-4.41** (read 4.34.0, 4.36.0, 4.36.2, 4.37.2, 4.38.x, 4.39.3, 4.40.x, 4.41.0,
  4.41.2; est49 read 4.35.2): ``cos_cached`` / ``sin_cached`` in the load dtype. Gone in 4.42.0.
- **Mixtral 4.36-4.47** (read 4.36.0 ... 4.47.1): the same. Gone in 4.48.0 (modular rewrite).
- **Qwen2 4.37-4.44** (read 4.37.2 ... 4.44.2) and **Qwen2-MoE 4.40-4.44** (read 4.40.0 ...
  4.44.2): the same. Gone in 4.45.0 (one rotary module on the model, ``inv_freq`` only).
- **Gemma** (4.38+): ``inv_freq`` only, never a table.

Under FSDP1 mixed precision the tables end up in its ``buffer_dtype``: torch's ``_lazy_init`` casts
every buffer to it at the first forward, and Accelerate (``MixedPrecision(param_dtype=dtype,
reduce_dtype=dtype, buffer_dtype=dtype)``), the HF Trainer and llama-recipes set it to 16 bits.

A release is placed by the version the job states. A version that names no patch release where
the layout changes inside that minor (Llama "4.38") is not placed: no table is counted.
"""

from __future__ import annotations

import re
from typing import Any, Optional

Version = tuple[int, int, int]

#: model_type -> ((first release with the tables, first without, "fp32" or "load"), ...)
ROTARY_TABLE_RELEASES: dict[str, tuple[tuple[Version, Version, str], ...]] = {
    "llama": (((4, 28, 0), (4, 31, 0), "fp32"), ((4, 31, 0), (4, 38, 0), "load"),
              ((4, 38, 2), (4, 41, 0), "load")),
    "mistral": (((4, 34, 0), (4, 42, 0), "load"),),
    "mixtral": (((4, 36, 0), (4, 48, 0), "load"),),
    "qwen2": (((4, 37, 0), (4, 45, 0), "load"),),
    "qwen2_moe": (((4, 40, 0), (4, 45, 0), "load"),),
}


def _parse(version: Optional[str]) -> Optional[tuple[int, int, Optional[int]]]:
    m = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", str(version or ""))
    if not m:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3)) if m.group(3) else None


def _layout(model_type: str, version: Optional[str]) -> Optional[str]:
    """"fp32" / "load" where the stated release keeps per-layer tables, else None (also when
    a version without a patch number falls on a minor whose patch releases differ)."""
    releases = ROTARY_TABLE_RELEASES.get(model_type)
    parsed = _parse(version)
    if not releases or parsed is None:
        return None
    major, minor, patch = parsed

    def find(v: Version) -> Optional[str]:
        for first, until, kind in releases:
            if first <= v < until:
                return kind
        return None

    if patch is not None:
        return find((major, minor, patch))
    low, high = find((major, minor, 0)), find((major, minor, 999))
    return low if low == high else None


def remote_code(arch: Any) -> bool:
    """The model runs its repository's own modeling file (the config names an ``auto_map``), not
    transformers' class for its ``model_type``: none of the tables above is known to it."""
    extra = getattr(arch, "extra", None) or {}
    return bool(extra.get("remote_code") or (extra.get("hub") or {}).get("remote_code"))


def table_element_bytes(inp: Any, kind: str) -> int:
    """Bytes per element: 2 under FSDP1 mixed precision (its buffer dtype); else fp32 for Llama
    4.28-4.30; otherwise the dtype the model is built in, 2 when it is loaded in 16 bits
    (``weights_bits`` 16, a pure bf16/fp16 job, or a bitsandbytes load, which makes
    ``torch_dtype=None`` float16), else fp32 (fp32 and AMP jobs)."""
    precision = str(getattr(inp, "precision", ""))
    if (getattr(inp, "fsdp", None) and precision.startswith("amp")
            and getattr(inp, "fsdp_version", None) != 2):
        # FSDP1's MixedPrecision(buffer_dtype=16-bit), which Accelerate, the HF Trainer and
        # llama-recipes set, casts every buffer to it at the first forward (``_lazy_init``)
        return 2
    if kind == "fp32":
        return 4
    if (getattr(inp, "weights_bits", None) == 16 or getattr(inp, "quant", None)
            or precision in ("bf16", "fp16")):
        return 2
    return 4 if precision == "fp32" or precision.startswith("amp") else 2


def rotary_table_bytes(inp: Any, arch: Any) -> int:
    """Bytes of the per-layer ``cos_cached`` + ``sin_cached`` in the releases read (module
    docstring), ``num_layers x 2 x max_position_embeddings x head_dim`` elements."""
    if (arch is None or getattr(inp, "model_impl", "transformers") != "transformers"
            or remote_code(arch)):
        return 0
    kind = _layout(str(getattr(arch, "model_type", "")), getattr(inp, "transformers_version", None))
    if kind is None:
        return 0
    element = table_element_bytes(inp, kind)
    return int(arch.num_layers) * 2 * int(arch.max_position or 0) * int(arch.head_dim) * element
