"""What the safetensors headers of a checkpoint say about its parameters.

Pure functions over data, no file or network access: :func:`summarize_tensors` turns the
(name, dtype, shape) triples of every tensor (read by :mod:`preflight.hub` from the Hub with
``get_safetensors_metadata`` or from the headers of files in the huggingface_hub cache) into a
:class:`WeightsSummary`: the exact logical parameter count, packed 4-bit and int-packed weights
counted as the weights they hold, quantization side tensors and buffers left out, and headers
whose shapes cannot be true rejected with :class:`HeaderMismatch`. :func:`quantization_of`
reads a config's ``quantization_config``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Tuple

__all__ = [
    "HeaderMismatch",
    "WeightsSummary",
    "quantization_of",
    "summarize_tensors",
]


# Bytes per element of each safetensors dtype.
_DTYPE_BYTES = {
    "F64": 8, "I64": 8, "U64": 8,
    "F32": 4, "I32": 4, "U32": 4,
    "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
    "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1, "BOOL": 1,
    "F4": 0.5, "F6_E2M3": 0.75, "F6_E3M2": 0.75,
}

# Tensors that quantization libraries store beside the packed weights: scales, zero points,
# permutation indices, bitsandbytes quant states. They take memory but are not parameters.
_QUANT_METADATA_SUFFIXES = (
    ".qzeros", ".scales", ".g_idx", ".SCB", ".weight_format", ".absmax", ".quant_map",
    ".nested_absmax", ".nested_quant_map", ".weight_scale", ".weight_scale_inv", ".input_scale",
    ".weight_zero_point", ".weight_shape", ".weight_g_idx", ".weight_global_scale",
    ".input_global_scale", "_scales", ".k_scale", ".v_scale",
)
_BNB_QUANT_STATE = ".quant_state.bitsandbytes__"


@dataclass(frozen=True)
class WeightsSummary:
    """What the safetensors headers of one revision say about its parameters."""

    params_total: int                      # logical parameters (packed int4 counted as weights)
    params_by_dtype: Mapping[str, int]     # logical parameters per stored dtype
    weight_bytes: int                      # bytes of every stored tensor, quant metadata included
    routed_expert_params: int              # parameters under ``.experts.`` (MoE routed experts)
    tensors: int                           # tensors counted as parameters
    files: int                             # safetensors files read (shards)
    packed_params: int = 0                 # logical parameters that were stored packed (int4/fp4)
    skipped: Tuple[str, ...] = ()          # kinds of tensors not counted (buffers, quant metadata)

    def to_json(self) -> dict:
        return {
            "params_total": self.params_total,
            "params_by_dtype": dict(sorted(self.params_by_dtype.items())),
            "weight_bytes": self.weight_bytes,
            "routed_expert_params": self.routed_expert_params,
            "tensors": self.tensors,
            "files": self.files,
            "packed_params": self.packed_params,
            "skipped": list(self.skipped),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WeightsSummary:
        return cls(
            params_total=int(data["params_total"]),
            params_by_dtype={str(k): int(v) for k, v in data["params_by_dtype"].items()},
            weight_bytes=int(data["weight_bytes"]),
            routed_expert_params=int(data["routed_expert_params"]),
            tensors=int(data["tensors"]),
            files=int(data["files"]),
            packed_params=int(data.get("packed_params", 0)),
            skipped=tuple(data.get("skipped", ())),
        )


def quantization_of(config: Mapping[str, Any]) -> Optional[dict]:
    """``{"method": ..., "bits": ...}`` of a pre-quantized checkpoint's config, else None.

    Reads ``quantization_config`` (GPTQ, AWQ, bitsandbytes, fp8, mxfp4, compressed-tensors), also
    inside a multimodal ``text_config``.
    """
    qc = config.get("quantization_config")
    if not isinstance(qc, Mapping):
        text = config.get("text_config")
        qc = text.get("quantization_config") if isinstance(text, Mapping) else None
    if not isinstance(qc, Mapping):
        return None
    method = str(qc.get("quant_method") or "").lower()
    bits: Optional[int] = None
    if isinstance(qc.get("bits"), int):
        bits = int(qc["bits"])
    elif qc.get("load_in_4bit") or method == "mxfp4":
        bits = 4
    elif qc.get("load_in_8bit") or method == "fp8":
        bits = 8
    elif method == "compressed-tensors":
        bits = _compressed_tensors_bits(qc)
    if not method and ("load_in_4bit" in qc or "load_in_8bit" in qc):
        method = "bitsandbytes"
    out: dict = {"method": method or "unknown", "bits": bits}
    if method == "bitsandbytes" and qc.get("bnb_4bit_quant_type"):
        out["quant_type"] = str(qc["bnb_4bit_quant_type"])
    return out


def _compressed_tensors_bits(qc: Mapping[str, Any]) -> Optional[int]:
    groups = qc.get("config_groups")
    if isinstance(groups, Mapping):
        for group in groups.values():
            weights = group.get("weights") if isinstance(group, Mapping) else None
            if isinstance(weights, Mapping) and isinstance(weights.get("num_bits"), int):
                return int(weights["num_bits"])
    return None


def _is_buffer(name: str, shape: Tuple[int, ...]) -> bool:
    """Non-parameter buffers some checkpoints carry (GPT-2's causal masks, RoPE tables)."""
    if name.endswith(("rotary_emb.inv_freq", ".position_ids", "attn.masked_bias")):
        return True
    # GPT-2 style ``h.N.attn.bias``: a [1, 1, n_ctx, n_ctx] causal mask, not a bias vector.
    return name.endswith("attn.bias") and len(shape) == 4


def _holds_two_fp4(name: str, names: set, method: str) -> bool:
    """A uint8 tensor packing two 4-bit values: mxfp4 ``*_blocks`` or bitsandbytes nf4/fp4."""
    if name.endswith("_blocks") and method in ("mxfp4", ""):
        return True
    return any(f"{name}{_BNB_QUANT_STATE}{kind}" in names for kind in ("nf4", "fp4"))


class HeaderMismatch(ValueError):
    """Safetensors headers whose shapes or totals cannot be true: not used for counting."""


# More parameters than any checkpoint holds (10 trillion): a header claiming this lies.
_MAX_PLAUSIBLE_PARAMS = 10 ** 13


def _checked_triples(tensors: Iterable[Tuple[str, str, Any]]) -> list:
    items = []
    total = 0
    for name, dtype, shape in tensors:
        if not isinstance(name, str) or not isinstance(dtype, str) or not isinstance(shape, (list, tuple)):
            raise HeaderMismatch(f"tensor {str(name)[:60]!r} has no readable dtype and shape")
        dims = []
        for d in shape:
            if isinstance(d, bool) or not isinstance(d, int) or d < 0:
                raise HeaderMismatch(f"tensor {name[:60]!r} has the shape {str(shape)[:60]}")
            dims.append(d)
        numel = math.prod(dims)
        total += numel
        if total > _MAX_PLAUSIBLE_PARAMS:
            raise HeaderMismatch(f"the shapes add up to more than {_MAX_PLAUSIBLE_PARAMS:.0e} values")
        items.append((name, dtype, tuple(dims)))
    return items


def summarize_tensors(
    tensors: Iterable[Tuple[str, str, Iterable[int]]],
    quantization: Optional[Mapping[str, Any]] = None,
    *,
    files: int = 1,
) -> WeightsSummary:
    """Count logical parameters from (name, safetensors dtype, shape) triples.

    Packed weights count as the weights they hold: GPTQ/AWQ ``qweight`` and compressed-tensors
    ``weight_packed`` (int32 holding 32/bits values), bitsandbytes 4-bit ``weight`` (uint8 holding
    two values, recognised by its ``quant_state``), mxfp4 ``*_blocks`` (uint8 holding two).
    Quantization side tensors (scales, zeros, indices, quant states) and known buffers are not
    parameters; every tensor counts toward ``weight_bytes``.
    """
    items = _checked_triples(tensors)
    names = {name for name, _, _ in items}
    bits = quantization.get("bits") if quantization else None
    method = str(quantization.get("method", "")) if quantization else ""
    int_pack = 32 // int(bits) if isinstance(bits, int) and 0 < bits < 32 else 8
    total = routed = counted = packed = 0
    weight_bytes = 0.0
    by_dtype: dict = {}
    skipped: set = set()
    for name, dtype, shape in items:
        numel = math.prod(shape)
        weight_bytes += numel * _DTYPE_BYTES.get(dtype.upper(), 2)
        if _BNB_QUANT_STATE in name or name.endswith(_QUANT_METADATA_SUFFIXES):
            skipped.add("quantization metadata")
            continue
        if _is_buffer(name, shape):
            skipped.add("buffers")
            continue
        factor = 1
        if name.endswith((".qweight", ".weight_packed")) and dtype.upper() in ("I32", "U32"):
            factor = int_pack
        elif dtype.upper() == "U8" and _holds_two_fp4(name, names, method):
            factor = 2
        logical = numel * factor
        if factor != 1:
            packed += logical
        total += logical
        counted += 1
        by_dtype[dtype.upper()] = by_dtype.get(dtype.upper(), 0) + logical
        if ".experts." in name or name.endswith(".experts") or ".experts_" in name:
            routed += logical
    return WeightsSummary(
        params_total=total,
        params_by_dtype=by_dtype,
        weight_bytes=math.ceil(weight_bytes),
        routed_expert_params=routed,
        tensors=counted,
        files=files,
        packed_params=packed,
        skipped=tuple(sorted(skipped)),
    )
