"""The model's parameter geometry the cost model charges: the total, the parts bitsandbytes
quantizes, embeddings, head, norms, the largest block (the ZeRO-3/FSDP gather unit) and the
largest single tensor (:func:`_params`); litgpt's untied LM head (:func:`litgpt_untied`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional


@dataclass(frozen=True)
class _Params:
    total: int
    quantizable: int   # linear weights inside the blocks (what bitsandbytes quantizes)
    embeddings: int
    lm_head: int
    norms: int
    layer: int         # parameters of the largest block (ZeRO-3/FSDP gather unit)
    source: str
    largest: int = 0   # the largest single parameter tensor (embedding, head or a matrix)


def litgpt_untied(arch: Any) -> Any:
    """The architecture as litgpt builds it: its ``GPT`` always holds ``lm_head = nn.Linear(n_embd,
    padded_vocab_size)`` beside ``transformer.wte = nn.Embedding(...)`` and never ties them
    (lit_gpt/model.py:25-28 at 8641822, litgpt/model.py at 2685705); a checkpoint whose head is
    tied (Falcon, Gemma) is converted with the embedding copied into the head. So the head is
    a second vocabulary x width weight, and the best known total (a published count, which
    counts a tied matrix once) grows by it."""
    extra_head = int(arch.vocab_size) * int(arch.hidden_size)
    total = int(getattr(arch, "params_total", 0) or 0)
    return replace(arch, tie_embeddings=False, params_total=total + extra_head if total else 0)


def _params(arch: Any, override: Optional[int]) -> _Params:
    from preflight.estimate.arch import ArchitectureError
    from preflight.estimate.params import count_params

    try:
        parts = dict(count_params(arch).by_part)
    except (ArchitectureError, KeyError, TypeError, AttributeError):
        parts = {}
    counted = sum(parts.values())
    total = override or getattr(arch, "params_total", 0) or counted
    scale = total / counted if counted else 1.0
    emb = int((parts.get("embeddings", 0) + parts.get("positions", 0)) * scale)
    head = int((parts.get("lm_head", 0) + parts.get("head", 0)) * scale)
    norms = int(parts.get("norms", 0) * scale)
    quantizable = max(total - emb - head - norms, 0)
    if arch.family == "cnn":
        quantizable = 0
    layers = max(arch.num_layers + arch.num_encoder_layers, 1)
    layer = max((total - emb - head) // layers, 1)
    if getattr(arch, "num_experts", 0) and arch.moe_layers:
        moe_part = parts.get("experts", 0) * scale / max(arch.moe_layers, 1)
        layer = max(layer, int(moe_part + parts.get("attention", 0) * scale / layers))
    source = "params" if override else getattr(arch, "params_source", "formula")
    if str(getattr(arch, "source", "")).startswith("guessed"):
        source = "guessed"
    width = max(arch.intermediate_size, arch.moe_intermediate_size or 0, arch.hidden_size)
    largest = max(arch.vocab_size * arch.hidden_size, width * arch.hidden_size)
    return _Params(total, quantizable, emb, head, norms, layer, source, largest)
