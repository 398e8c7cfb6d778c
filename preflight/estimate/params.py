"""Exact parameter counts of an :class:`~preflight.estimate.arch.Architecture`.

Pure Python (no torch, no transformers). :func:`preflight.estimate.arch.from_hf_config` fills
``params_total``/``params_active`` with :func:`count_params`, and the estimator, the Hub fit and
the catalogs count with it; ``from preflight.estimate.arch import count_params`` keeps working.

``count_params`` follows the module layout that ``transformers`` builds for the config (the
``*Model`` plus the LM head of ``*ForCausalLM``/``*ForConditionalGeneration``, or the
classifier of ``*ForImageClassification`` when the config's ``architectures`` names one), so
its total equals what ``model.num_parameters()`` and the Hub's safetensors total report:

* biases only where the architecture has them, every norm (RMSNorm: weight only, LayerNorm:
  weight and bias), learned position embeddings, token-type embeddings, poolers;
* tied input/output embeddings counted once;
* MoE: ``total`` counts every routed and shared expert and the routers; ``active`` counts what
  one token uses (shared experts, ``experts_per_token`` routed experts, everything else);
* multimodal configs (``text_config`` + ``vision_config``): the language model, plus the vision
  tower and projector when the vision config is one this module can read (CLIP, SigLIP, the
  Qwen2-VL and Qwen2.5-VL towers).

What each architecture-specific knob means is kept in ``Architecture.extra`` (see
``preflight.estimate.arch_knobs.decoder_knobs``) so that ``count_params`` works on an
``Architecture`` alone; an ``Architecture`` built by hand without ``extra`` is counted with the
family's plain layout (decoder: Llama; encoder: BERT; encoder-decoder: T5; vision: ViT).
"""

from __future__ import annotations

from typing import Any, Dict, Mapping

from preflight.estimate import arch_more
from preflight.estimate.arch import Architecture, ArchitectureError, ParamCount

__all__ = ["count_params"]


def _linear(n_in: int, n_out: int, bias: bool) -> int:
    return n_in * n_out + (n_out if bias else 0)


def _norm(width: int, kind: str) -> int:
    return {"rms": width, "layer": 2 * width, "none": 0}.get(kind, width)


def _count_decoder(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    h = a.hidden_size
    norm = str(x.get("norm", "rms"))
    qkv_bias, o_bias, mlp_bias = (bool(x.get("qkv_bias")), bool(x.get("o_bias")),
                                  bool(x.get("mlp_bias")))
    mla = x.get("mla")
    if mla:
        nope, rope, v_dim = mla["qk_nope_head_dim"], mla["qk_rope_head_dim"], mla["v_head_dim"]
        q_head = nope + rope
        if mla.get("q_lora_rank"):
            r = mla["q_lora_rank"]
            q = _linear(h, r, qkv_bias) + r + r * a.num_heads * q_head
        else:
            q = h * a.num_heads * q_head
        kv_r = mla["kv_lora_rank"]
        kv = _linear(h, kv_r + rope, qkv_bias) + kv_r + kv_r * a.num_heads * (nope + v_dim)
        attn_layer = q + kv + _linear(a.num_heads * v_dim, h, o_bias)
    else:
        q_out = a.num_heads * a.head_dim
        kv_out = a.num_kv_heads * a.head_dim
        attn_layer = (_linear(h, q_out, qkv_bias) + 2 * _linear(h, kv_out, qkv_bias)
                      + _linear(q_out, h, o_bias))
        qk_norm = x.get("qk_norm")
        if qk_norm == "full":
            attn_layer += q_out + kv_out
        elif qk_norm:
            attn_layer += 2 * a.head_dim

    def mlp(width: int) -> int:
        if a.gated_mlp:
            return 2 * _linear(h, width, mlp_bias) + _linear(width, h, mlp_bias)
        return _linear(h, width, mlp_bias) + _linear(width, h, mlp_bias)

    moe_layers = a.moe_layers if a.num_experts else 0
    dense_layers = a.num_layers - moe_layers
    e = int(x.get("embed_dim") or h)   # OPT's word_embed_proj_dim (project_in/out when != h)
    parts: Dict[str, int] = {
        "embeddings": a.vocab_size * e + (2 * e * h if e != h else 0),
        "positions": int(x.get("learned_positions", 0)) * h,
        "attention": a.num_layers * attn_layer,
        "mlp": dense_layers * mlp(a.intermediate_size),
        "norms": ((a.num_layers * int(x.get("norms_per_layer", 2)) + int(x.get("final_norm", True)))
                  * _norm(h, norm)
                  + (_norm(h, "layer") if x.get("embed_norm") else 0)),
        "lm_head": (0 if a.tie_embeddings else a.vocab_size * e)
                   + (a.vocab_size if x.get("lm_head_bias") else 0),
    }
    if x.get("task_head", "lm") != "lm":
        # *ForSequenceClassification / *ForTokenClassification: ``score`` = Linear(hidden,
        # num_labels, bias=False) in place of the LM head (est73)
        parts["lm_head"] = h * int(x.get("num_labels", 2))
    if moe_layers:
        expert = mlp(a.moe_intermediate_size)
        router = h * a.num_experts + (a.num_experts if x.get("router_bias") else 0)
        shared_width = int(x.get("shared_expert_intermediate", 0)) or (
            a.shared_experts * a.moe_intermediate_size)
        shared = mlp(shared_width) if shared_width else 0
        if x.get("shared_expert_gate"):
            shared += h
        parts["experts"] = moe_layers * a.num_experts * expert
        parts["shared_experts"] = moe_layers * shared
        parts["router"] = moe_layers * router
        parts["_inactive"] = moe_layers * (a.num_experts - a.experts_per_token) * expert
    return parts


def _count_encoder(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    h, inter = a.hidden_size, a.intermediate_size
    e = int(x.get("embedding_size", h) or h)
    layer_attn = 4 * _linear(h, h, True)
    layer_mlp = _linear(h, inter, True) + _linear(inter, h, True)
    # ALBERT: the weights of one layer per group, shared by every layer of the group
    weight_layers = int(x.get("weight_groups", 0)) or a.num_layers
    return {
        "embeddings": a.vocab_size * e + int(x.get("type_vocab", 2)) * e
        + (_linear(e, h, True) if e != h else 0),
        "positions": int(x.get("positions", a.max_position)) * e,
        "attention": weight_layers * layer_attn,
        "mlp": weight_layers * layer_mlp,
        "norms": 2 * weight_layers * 2 * h + 2 * e,
        "pooler": _linear(h, h, True) if x.get("pooler", True) else 0,
    }


def _count_t5(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    d, inner, ff = a.hidden_size, a.num_heads * a.head_dim, a.intermediate_size
    attn = 4 * d * inner
    mlp = (3 if a.gated_mlp else 2) * d * ff
    buckets = int(x.get("relative_buckets", 32)) * a.num_heads
    enc, dec = a.num_encoder_layers, a.num_layers
    return {
        "embeddings": a.vocab_size * d,
        "positions": 2 * buckets if dec else buckets,
        "attention": enc * attn + dec * 2 * attn,
        "mlp": (enc + dec) * mlp,
        "norms": (2 * enc + 1 + (3 * dec + 1 if dec else 0)) * d,
        "lm_head": 0 if a.tie_embeddings else a.vocab_size * d,
    }


def _count_bart(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    d = a.hidden_size
    attn = 4 * _linear(d, d, True)
    enc_ff, dec_ff = int(x.get("encoder_ffn", a.intermediate_size)), a.intermediate_size
    enc, dec = a.num_encoder_layers, a.num_layers
    final = 2 if x.get("final_norms") else 0
    return {
        "embeddings": a.vocab_size * d,
        "positions": 2 * int(x.get("positions", a.max_position + 2)) * d,
        "attention": enc * attn + dec * 2 * attn,
        "mlp": enc * (_linear(d, enc_ff, True) + _linear(enc_ff, d, True))
        + dec * (_linear(d, dec_ff, True) + _linear(dec_ff, d, True)),
        "norms": ((2 if x.get("embed_norms", True) else 0) + final + 2 * enc + 3 * dec) * 2 * d,
        "lm_head": 0 if a.tie_embeddings else a.vocab_size * d,
    }


def _count_whisper(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    d = a.hidden_size
    attn = 4 * d * d + 3 * d  # k_proj has no bias
    enc_ff, dec_ff = int(x.get("encoder_ffn", a.intermediate_size)), a.intermediate_size
    enc, dec = a.num_encoder_layers, a.num_layers
    mel = int(x.get("mel_bins", 80))
    return {
        "conv": (mel * d * 3 + d) + (d * d * 3 + d),
        "embeddings": a.vocab_size * d,
        "positions": (int(x.get("source_positions", 1500)) + int(x.get("target_positions", 448))) * d,
        "attention": enc * attn + dec * 2 * attn,
        "mlp": enc * (_linear(d, enc_ff, True) + _linear(enc_ff, d, True))
        + dec * (_linear(d, dec_ff, True) + _linear(dec_ff, d, True)),
        "norms": (2 + 2 * enc + 3 * dec) * 2 * d,
    }


def _count_vit(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    d, inter = a.hidden_size, a.intermediate_size
    patches = (a.image_size // max(a.patch_size, 1)) ** 2
    qkv_bias = bool(x.get("qkv_bias", True))
    classifier = int(x.get("classifier", 0))
    extra_tokens = int(x.get("extra_tokens", 0))
    head_in = 2 * d if x.get("cls_on_patch_mean") else d   # DINOv2: [CLS, mean of patches]
    return {
        # CLS token (+ DeiT's distillation token, + a mask token), patch projection
        "embeddings": d * (1 + extra_tokens + (1 if x.get("mask_token") else 0))
        + a.num_channels * a.patch_size * a.patch_size * d + d,
        "positions": (patches + 1 + extra_tokens) * d,
        "attention": a.num_layers * (3 * _linear(d, d, qkv_bias) + _linear(d, d, True)),
        # DINOv2-giant's SwiGLU: weights_in d -> 2 x inter, weights_out inter -> d
        "mlp": a.num_layers * (_linear(d, (2 if a.gated_mlp else 1) * inter, True) + _linear(inter, d, True)),
        "norms": (2 * a.num_layers + 1) * 2 * d + (2 * a.num_layers * d if x.get("layerscale") else 0),
        "pooler": _linear(d, d, True) if x.get("pooler", True) else 0,
        "head": (_linear(head_in, classifier, True) if classifier else 0)
        + (_linear(d, int(x.get("distilled_head", 0)), True) if x.get("distilled_head") else 0),
    }


def _count_clip_text(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    d, inter = a.hidden_size, a.intermediate_size
    return {
        "embeddings": a.vocab_size * d,
        "positions": a.max_position * d,
        "attention": a.num_layers * 4 * _linear(d, d, True),
        "mlp": a.num_layers * (_linear(d, inter, True) + _linear(inter, d, True)),
        "norms": (2 * a.num_layers + 1) * 2 * d,
        "vision": int(x.get("vision_params", 0)),
        "projector": int(x.get("projector_params", 0)),
    }


def _conv_bn(c_in: int, c_out: int, k: int) -> int:
    return c_in * c_out * k * k + 2 * c_out  # conv without bias + BatchNorm weight/bias


def _count_resnet(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    emb = int(x.get("embedding_size", 64))
    stem = _conv_bn(a.num_channels, emb, 7)
    body = 0
    c_in = emb
    bottleneck = x.get("layer_type", "bottleneck") == "bottleneck"
    for i, (c_out, depth) in enumerate(zip(x["hidden_sizes"], x["depths"])):
        for j in range(depth):
            stride = 2 if (j == 0 and i > 0) else 1
            src = c_in if j == 0 else c_out
            if src != c_out or stride != 1:
                body += _conv_bn(src, c_out, 1)
            if bottleneck:
                r = c_out // 4
                body += _conv_bn(src, r, 1) + _conv_bn(r, r, 3) + _conv_bn(r, c_out, 1)
            else:
                body += _conv_bn(src, c_out, 3) + _conv_bn(c_out, c_out, 3)
        c_in = c_out
    classifier = int(x.get("classifier", 0))
    return {"stem": stem, "stages": body,
            "head": _linear(c_in, classifier, True) if classifier else 0}


def _count_convnext(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    widths, depths = x["hidden_sizes"], x["depths"]
    p = int(x.get("patch_size", 4))
    stem = a.num_channels * p * p * widths[0] + widths[0] + 2 * widths[0]
    body = 0
    c_in = widths[0]
    for i, (c, depth) in enumerate(zip(widths, depths)):
        if i > 0:
            body += 2 * c_in + c_in * c * 4 + c  # LayerNorm + 2x2 stride-2 conv with bias
        block = (c * 49 + c) + 2 * c + _linear(c, 4 * c, True) + _linear(4 * c, c, True)
        if x.get("layer_scale", True):
            block += c
        body += depth * block
        c_in = c
    classifier = int(x.get("classifier", 0))
    return {"stem": stem, "stages": body, "norms": 2 * c_in,
            "head": _linear(c_in, classifier, True) if classifier else 0}


_FAMILY_LAYOUT = {"decoder": "decoder", "encoder": "encoder", "encoder-decoder": "t5",
                  "vision": "vit", "multimodal": "decoder"}


def count_params(arch: Architecture) -> ParamCount:
    """Exact parameter count of ``arch`` (see the module docstring for what is counted)."""
    x = arch.extra or {}
    layout = str(x.get("layout") or _FAMILY_LAYOUT.get(arch.family, ""))
    inactive = 0
    if layout == "multimodal":
        layout = str(x.get("text_layout") or "decoder")
        parts = _COUNTERS[layout](arch, x)
        parts["vision"] = int(x.get("vision_params", 0))
        parts["projector"] = int(x.get("projector_params", 0))
        if x.get("cross_layers") or x.get("extra_embed_rows"):
            parts.update(arch_more.count_mllama_extra(arch, x))
    elif layout in _COUNTERS:
        parts = _COUNTERS[layout](arch, x)
    elif arch.family == "cnn":
        raise ArchitectureError(f"{arch.name}: a CNN needs its stage widths and depths (extra)")
    else:
        raise ArchitectureError(f"{arch.name}: no parameter layout for family {arch.family!r}")
    inactive = parts.pop("_inactive", 0)
    parts = {k: v for k, v in parts.items() if v}
    total = sum(parts.values())
    return ParamCount(total=total, active=total - inactive, by_part=parts)


_COUNTERS = {
    "decoder": _count_decoder,
    "encoder": _count_encoder,
    "t5": _count_t5,
    "bart": _count_bart,
    "whisper": _count_whisper,
    "vit": _count_vit,
    "clip": _count_clip_text,
    "resnet": _count_resnet,
    "convnext": _count_convnext,
    **arch_more.COUNTERS,
}
