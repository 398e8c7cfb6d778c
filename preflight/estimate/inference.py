"""Inference and generation phases of the cost model (prefill, decode; one forward pass).
(Split from :mod:`preflight.estimate.model`, which calls it.)"""

from __future__ import annotations

from typing import Any

from preflight.estimate import activations as A
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.terms import attention_kernel

# --------------------------------------------------------------------------- inference


def inference_phases(inp: EstimateInput, arch: Any, prm: Any, ph: Any, pb: tuple[float, float],
                     ab: tuple[float, float], notes: list[str]) -> tuple[str, ...]:
    """Adds the inference (``forward``) or generation (``prefill``, ``decode``) terms to
    ``ph`` and returns the phases it filled."""
    from preflight.estimate.model import _dtypes

    d, base_bytes, other_bytes = _dtypes(inp)
    if not inp.quant and inp.precision.startswith("amp"):
        base_bytes = 2.0 if inp.weights_bits == 16 else 4.0
    weights = (prm.quantizable * base_bytes + (prm.total - prm.quantizable) * other_bytes
               if inp.quant else prm.total * base_bytes)
    n = max(inp.world_size, 1)
    if n > 1:
        notes.append(f"inference over {n} GPUs: weights and KV cache split across them "
                     "(device_map / tensor parallel)")
    b = inp.micro_batch * (inp.num_beams if inp.mode == "generate" else 1)
    family = arch.family
    if family in ("vision", "cnn"):
        image = inp.image_size or arch.image_size
        seq = (image // max(arch.patch_size, 1)) ** 2 + 1 if family == "vision" else 1
    else:
        seq = int(inp.seq_len or 0)
    h = arch.hidden_size
    width = max(arch.intermediate_size, (arch.moe_intermediate_size or 0) * max(arch.experts_per_token, 1))
    ec = d.comp

    def transient(tokens: int, keys: int) -> float:
        out = tokens * (3 * width * ec + 2 * h * d.res + ec * (arch.num_heads * arch.head_dim))
        if attention_kernel(inp) == "eager":
            out += (tokens // max(keys, 1) if family != "cnn" else 0) * arch.num_heads * keys * keys * 6
        return out

    if family == "cnn":
        acts = A.cnn(arch, d, batch=inp.micro_batch, image=inp.image_size or arch.image_size)
        ph.add("forward", "weights", weights, pb)
        ph.add("forward", "prefill_transient", acts.backward, ab)
        return ("forward",)
    if inp.mode == "infer":
        ph.add("forward", "weights", weights / n, pb)
        ph.add("forward", "prefill_transient", transient(b * seq, seq), ab)
        if arch.vocab_size and family != "vision":
            ph.add("forward", "logits_loss", b * seq * arch.vocab_size * ec, ab)
        return ("forward",)
    context = seq + inp.max_new_tokens
    window = getattr(arch, "sliding_window", None)
    if window and arch.model_type in ("mistral",):
        context = min(context, window)
        notes.append(f"sliding window {window}: the KV cache keeps at most {window} positions")
    kv_per_pos = (arch.num_layers * 2 * arch.num_kv_heads * arch.head_dim * ec)
    kv_prompt = kv_per_pos * min(seq, context) * b
    kv_full = kv_per_pos * context * b
    last_logits = b * arch.vocab_size * (ec + 4)
    kvb = pb if prm.source != "guessed" else ab
    ph.add("prefill", "weights", weights / n, pb)
    ph.add("prefill", "kv_cache", kv_prompt / n, kvb)
    ph.add("prefill", "prefill_transient", transient(b * seq, seq), ab)
    ph.add("prefill", "logits_loss", last_logits, ab)
    ph.add("decode", "weights", weights / n, pb)
    ph.add("decode", "kv_cache", kv_full / n, kvb)
    # DynamicCache grows by torch.cat: one layer's cache exists twice during the copy
    ph.add("decode", "prefill_transient", kv_full / max(arch.num_layers, 1) / n, kvb)
    ph.add("decode", "logits_loss", last_logits, ab)
    return ("prefill", "decode")
