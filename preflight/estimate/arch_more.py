"""Config readers and parameter layouts for DeBERTa-v2/v3, Swin, wav2vec 2.0 and Llama 3.2 Vision
(``mllama``), split from :mod:`preflight.estimate.arch` (which dispatches here) and
:mod:`preflight.estimate.params` (whose ``count_params`` uses :data:`COUNTERS`).

Pure Python. Each layout follows the module ``transformers`` builds for the config (checked
against ``sum(p.numel() for p in model.parameters())`` on the meta device, transformers 5.24),
and each reader also records the shapes activations depend on in ``Architecture.extra``:

* ``deberta-v2``: the disentangled attention keeps, besides the content scores, one
  (batch x heads x tokens x tokens) map per relative term (``score_maps``: 1 + c2p + p2c)
  and has no SDPA/flash path in transformers (``eager_only``);
* ``swin``: four stages of different width, token count and head count, attention inside
  ``window`` x ``window`` windows (``stages``: per stage the tokens per image, width, heads,
  depth, window tokens and MLP width); the Architecture's own fields describe stage 1;
* ``wav2vec2``: a convolutional feature encoder over the raw waveform (``conv_stack``) and a
  Transformer over frames (``frames_per_second``: the sequence length of one second of 16 kHz
  audio); ``seq_len`` for the estimator is the number of frames;
* ``mllama``: the Llama 3 text decoder with ``cross_layers`` gated cross-attention layers
  over the vision tokens, and a two-stage ViT-H over up to ``max_num_tiles`` tiles
  (``vision``: tokens per tile, width, local and global depth).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from preflight.estimate.arch_config import (
    Architecture,
    ArchitectureError,
    Cfg,
    config_object,
    encoder_head,
    has_head,
    num_labels,
)

MODEL_TYPES = ("deberta-v2", "swin", "wav2vec2", "mllama")


def _linear(n_in: int, n_out: int, bias: bool) -> int:
    return n_in * n_out + (n_out if bias else 0)


def _err(message: str) -> Exception:
    return ArchitectureError(message)


# --------------------------------------------------------------------------- DeBERTa-v2 / v3


def _pos_att_type(cfg: Any) -> List[str]:
    raw = cfg.raw("pos_att_type")
    if raw is None:
        return []
    if isinstance(raw, str):
        return [p.strip().lower() for p in raw.split("|") if p.strip()]
    if isinstance(raw, (list, tuple)):
        return [str(p).strip().lower() for p in raw]
    raise _err(f"{cfg.where}: 'pos_att_type' must be a list or a '|'-separated string")


def read_deberta(mt: str, cfg: Any, name: str, source: str) -> Architecture:
    hidden = cfg.integer("hidden_size", default=1536)
    heads = cfg.integer("num_attention_heads", default=24)
    max_pos = cfg.integer("max_position_embeddings", default=512)
    relative = cfg.flag("relative_attention", False)
    att = _pos_att_type(cfg) if relative else []
    raw_buckets = cfg.raw("position_buckets", default=-1)
    buckets = int(raw_buckets) if isinstance(raw_buckets, int) and raw_buckets > 0 else 0
    max_rel = int(cfg.raw("max_relative_positions", default=-1) or -1)
    if max_rel < 1:
        max_rel = max_pos
    pos_ebd = buckets if buckets > 0 else max_rel
    norm_rel = str(cfg.raw("norm_rel_ebd", default="none") or "none").lower()
    conv_kernel = cfg.integer("conv_kernel_size", default=0)
    return Architecture(
        name=name, model_type=mt, family="encoder", hidden_size=hidden,
        num_layers=cfg.integer("num_hidden_layers", default=24), num_heads=heads, num_kv_heads=heads,
        head_dim=cfg.integer("attention_head_size", default=hidden // max(heads, 1)),
        intermediate_size=cfg.integer("intermediate_size", default=6144),
        vocab_size=cfg.integer("vocab_size", default=128100), tie_embeddings=True, gated_mlp=False,
        max_position=max_pos, source=source,
        extra={"layout": "deberta", "task_head": encoder_head(cfg),
               "embedding_size": cfg.integer("embedding_size", default=hidden),
               "positions": max_pos if cfg.flag("position_biased_input", True) else 0,
               "type_vocab": cfg.integer("type_vocab_size", default=0),
               "relative_attention": relative, "rel_positions": 2 * pos_ebd if relative else 0,
               "rel_norm": relative and "layer_norm" in norm_rel,
               # separate position projections unless share_att_key (DeBERTa-v3 shares them)
               "pos_key_proj": relative and not cfg.flag("share_att_key", False)
               and ("c2p" in att or "p2p" in att),
               "pos_query_proj": relative and not cfg.flag("share_att_key", False)
               and ("p2c" in att or "p2p" in att),
               "conv_kernel": conv_kernel,
               "score_maps": 1 + sum(1 for t in ("c2p", "p2c") if t in att),
               "eager_only": True})


def count_deberta(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    h, inter = a.hidden_size, a.intermediate_size
    e = int(x.get("embedding_size", h) or h)
    inner = a.num_heads * a.head_dim
    attn = 3 * _linear(h, inner, True) + _linear(inner, h, True)
    pos_proj = (_linear(h, inner, True) if x.get("pos_key_proj") else 0) + \
        (_linear(h, inner, True) if x.get("pos_query_proj") else 0)
    # DebertaV2Model, as the published totals count it (184M for deberta-v3-base): no pooler
    # (the classification head's ContextPooler) and no MLM head
    return {
        "embeddings": a.vocab_size * e + int(x.get("type_vocab", 0)) * e + 2 * h
        + (_linear(e, h, False) if e != h else 0),
        "positions": int(x.get("positions", 0)) * e + int(x.get("rel_positions", 0)) * h,
        "attention": a.num_layers * (attn + pos_proj),
        "mlp": a.num_layers * (_linear(h, inter, True) + _linear(inter, h, True)),
        "norms": a.num_layers * 2 * 2 * h + (2 * h if x.get("rel_norm") else 0),
        "conv": (h * h * int(x["conv_kernel"]) + h + 2 * h) if x.get("conv_kernel") else 0,
    }


# --------------------------------------------------------------------------- Swin


def read_swin(mt: str, cfg: Any, name: str, source: str) -> Architecture:
    embed = cfg.integer("embed_dim", default=96)
    depths = cfg.integers("depths") if cfg.raw("depths") is not None else [2, 2, 6, 2]
    heads = cfg.integers("num_heads") if cfg.raw("num_heads") is not None else [3, 6, 12, 24]
    if len(depths) != len(heads):
        raise _err(f"{name}: 'depths' and 'num_heads' differ in length")
    image = cfg.integer("image_size", default=224)
    patch = cfg.integer("patch_size", default=4)
    window = cfg.integer("window_size", default=7)
    ratio = cfg.raw("mlp_ratio", default=4.0)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio < 1e4:
        raise _err(f"{name}: 'mlp_ratio' must be a positive number, got {ratio!r}")
    side = image // max(patch, 1)
    stages = []
    for i, (depth, h) in enumerate(zip(depths, heads)):
        width = embed * 2 ** i
        stages.append({"tokens": (side // 2 ** i) ** 2, "hidden": width, "heads": h, "depth": depth,
                       "window_tokens": window * window, "mlp": int(width * ratio)})
    classifier = num_labels(cfg) if has_head(cfg, "ForImageClassification") else 0
    return Architecture(
        name=name, model_type=mt, family="vision", hidden_size=embed, num_layers=sum(depths),
        num_heads=heads[0], num_kv_heads=heads[0], head_dim=embed // max(heads[0], 1),
        intermediate_size=int(embed * ratio), vocab_size=0, tie_embeddings=False, gated_mlp=False,
        image_size=image, patch_size=patch, num_channels=cfg.integer("num_channels", default=3),
        source=source,
        extra={"layout": "swin", "stages": stages, "window": window, "classifier": classifier,
               "qkv_bias": cfg.flag("qkv_bias", True),
               "absolute_positions": cfg.flag("use_absolute_embeddings", False)})


def count_swin(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    stages = list(x.get("stages") or [])
    if not stages:
        raise _err(f"{a.name}: a Swin architecture needs its stages (extra)")
    c = stages[0]["hidden"]
    qkv_bias = bool(x.get("qkv_bias", True))
    window = int(x.get("window", 7))
    bias_table = (2 * window - 1) ** 2
    side_tokens = stages[0]["tokens"]
    parts = {"embeddings": a.num_channels * a.patch_size * a.patch_size * c + c + 2 * c
             + ((side_tokens + 1) * c if x.get("absolute_positions") else 0),
             "attention": 0, "mlp": 0, "norms": 0, "downsample": 0}
    for i, s in enumerate(stages):
        d, m, n = s["hidden"], s["mlp"], s["depth"]
        parts["attention"] += n * (3 * _linear(d, d, qkv_bias) + _linear(d, d, True)
                                   + bias_table * s["heads"])
        parts["mlp"] += n * (_linear(d, m, True) + _linear(m, d, True))
        parts["norms"] += n * 2 * 2 * d
        if i < len(stages) - 1:   # patch merging: LayerNorm(4d) and a 4d -> 2d projection, no bias
            parts["downsample"] += 2 * 4 * d + 4 * d * 2 * d
    last = stages[-1]["hidden"]
    parts["norms"] += 2 * last
    classifier = int(x.get("classifier", 0))
    parts["head"] = _linear(last, classifier, True) if classifier else 0
    return parts


# --------------------------------------------------------------------------- wav2vec 2.0


def read_wav2vec2(mt: str, cfg: Any, name: str, source: str) -> Architecture:
    hidden = cfg.integer("hidden_size", default=768)
    heads = cfg.integer("num_attention_heads", default=12)
    dims = cfg.integers("conv_dim") if cfg.raw("conv_dim") is not None else [512] * 7
    strides = cfg.integers("conv_stride") if cfg.raw("conv_stride") is not None else [5] + [2] * 6
    kernels = cfg.integers("conv_kernel") if cfg.raw("conv_kernel") is not None else [10] + [3] * 4 + [2] * 2
    if not len(dims) == len(strides) == len(kernels):
        raise _err(f"{name}: 'conv_dim', 'conv_stride' and 'conv_kernel' differ in length")
    hop = 1
    for s in strides:
        hop *= s
    ctc = has_head(cfg, "ForCTC")
    masking = float(cfg.raw("mask_time_prob", default=0.05) or 0) > 0 or \
        float(cfg.raw("mask_feature_prob", default=0.0) or 0) > 0
    return Architecture(
        name=name, model_type=mt, family="encoder", hidden_size=hidden,
        num_layers=cfg.integer("num_hidden_layers", default=12), num_heads=heads, num_kv_heads=heads,
        head_dim=hidden // max(heads, 1), intermediate_size=cfg.integer("intermediate_size", default=3072),
        vocab_size=cfg.integer("vocab_size", default=32) if ctc else 0, tie_embeddings=False,
        gated_mlp=False, source=source,
        extra={"layout": "wav2vec2", "task_head": "ctc" if ctc else "none",
               "conv_stack": [{"channels": d, "kernel": k, "stride": s}
                              for d, k, s in zip(dims, kernels, strides)],
               "conv_bias": cfg.flag("conv_bias", False),
               "feat_extract_norm": str(cfg.raw("feat_extract_norm", default="group")).lower(),
               "pos_conv_kernel": cfg.integer("num_conv_pos_embeddings", default=128),
               "pos_conv_groups": cfg.integer("num_conv_pos_embedding_groups", default=16),
               "masked_spec_embed": masking,
               "frames_per_second": 16000 // hop,
               "dropout": float(cfg.raw("hidden_dropout", default=0.1) or 0)})


def count_wav2vec2(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    h, inter = a.hidden_size, a.intermediate_size
    stack = list(x.get("conv_stack") or [])
    bias = bool(x.get("conv_bias"))
    conv, c_in = 0, 1
    for i, layer in enumerate(stack):
        c = layer["channels"]
        conv += c_in * c * layer["kernel"] + (c if bias else 0)
        if x.get("feat_extract_norm") == "layer" or i == 0:   # 'group': GroupNorm on the first only
            conv += 2 * c
        c_in = c
    k, groups = int(x.get("pos_conv_kernel", 128)), max(int(x.get("pos_conv_groups", 16)), 1)
    return {
        "masked_spec_embed": h if x.get("masked_spec_embed", True) else 0,
        "conv": conv,
        "projection": 2 * c_in + _linear(c_in, h, True),
        # weight-normed grouped conv: g (1 x 1 x k), v (h x h/groups x k) and the bias
        "positions": k + h * (h // groups) * k + h,
        "attention": a.num_layers * 4 * _linear(h, h, True),
        "mlp": a.num_layers * (_linear(h, inter, True) + _linear(inter, h, True)),
        "norms": (2 * a.num_layers + 1) * 2 * h,
        "head": _linear(h, a.vocab_size, True) if a.vocab_size else 0,
    }


# --------------------------------------------------------------------------- mllama


_MLLAMA_TEXT = {"vocab_size": 128256, "hidden_size": 4096, "intermediate_size": 14336,
                "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 8,
                "max_position_embeddings": 131072, "tie_word_embeddings": False,
                "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38]}
_MLLAMA_VISION = {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32,
                  "num_global_layers": 8, "attention_heads": 16, "image_size": 560,
                  "patch_size": 14, "num_channels": 3, "max_num_tiles": 4,
                  "intermediate_layers_indices": [3, 7, 15, 23, 30]}


def read_mllama(mt: str, config: Mapping[str, Any], name: str, source: str) -> Architecture:
    from dataclasses import replace

    from preflight.estimate.arch import _read_one  # arch imports this module: loaded on first use

    text_raw: Dict[str, Any] = dict(_MLLAMA_TEXT)
    text_raw.update(config_object(config.get("text_config", {}) or {}, name, "text_config"))
    cross = text_raw.get("cross_attention_layers") or []
    if not isinstance(cross, (list, tuple)) or not all(isinstance(i, int) for i in cross):
        raise _err(f"{name}: 'cross_attention_layers' must be a list of layer indices")
    text_raw["model_type"] = "llama"
    inner = _read_one("llama", text_raw, name, source)
    if len(cross) > inner.num_layers:
        raise _err(f"{name}: {len(cross)} cross-attention layers but {inner.num_layers} layers")
    vraw: Dict[str, Any] = dict(_MLLAMA_VISION)
    vraw.update(config_object(config.get("vision_config", {}) or {}, name, "vision_config"))
    v = Cfg(vraw, "mllama_vision_model", f"{name} vision_config")
    d, inter = v.integer("hidden_size"), v.integer("intermediate_size")
    local, global_ = v.integer("num_hidden_layers"), v.integer("num_global_layers")
    patch, image = v.integer("patch_size"), v.integer("image_size")
    tiles, channels = v.integer("max_num_tiles"), v.integer("num_channels")
    ratios = vraw.get("supported_aspect_ratios")
    ratio_ids = len(ratios) if isinstance(ratios, (list, tuple)) and ratios else 8
    tokens = (image // max(patch, 1)) ** 2 + 1          # patches + class token, per tile
    layer = 4 * d * d + _linear(d, inter, True) + _linear(inter, d, True) + 2 * 2 * d
    vision = (d + channels * patch * patch * d                    # class embedding, patch conv
              + 1 + tokens * d + (ratio_ids + 1) * tiles * tokens * d  # gated positions + tiles
              + 2 * (1 + (ratio_ids + 1) * tiles * d)                  # pre/post tile embeddings
              + 2 * 2 * d + local * layer + global_ * (layer + 2))
    indices = vraw.get("intermediate_layers_indices")
    taps = len(indices) if isinstance(indices, (list, tuple)) else 0
    # the last hidden state and the tapped intermediate layers, concatenated
    out_dim = v.integer("vision_output_dim", default=d * (taps + 1))
    projector = _linear(out_dim, inner.hidden_size, True)
    extra = dict(inner.extra)
    extra.update({"text_layout": "decoder", "layout": "multimodal", "text_model_type": "mllama_text",
                  "vision_params": vision, "projector_params": projector, "vision_counted": True,
                  # MllamaTextModel embeds vocab + 8 rows; a cross layer adds q/k RMSNorms and two gates
                  "extra_embed_rows": 8, "cross_layers": len(cross),
                  "cross_layer_extra": 2 * inner.head_dim + 2,
                  "vision": {"hidden_size": d, "num_layers": local + global_, "local_layers": local,
                             "global_layers": global_, "image_size": image, "patch_size": patch,
                             "num_channels": channels, "tokens_per_tile": tokens,
                             "max_num_tiles": tiles, "intermediate_size": inter}})
    return replace(inner, model_type=mt, family="multimodal", image_size=image, patch_size=patch,
                   num_channels=channels, extra=extra)


def count_mllama_extra(a: Architecture, x: Mapping[str, Any]) -> Dict[str, int]:
    """What an ``mllama`` text model adds to the plain decoder count."""
    return {"embeddings_extra": int(x.get("extra_embed_rows", 0)) * a.hidden_size,
            "cross_attention": int(x.get("cross_layers", 0)) * int(x.get("cross_layer_extra", 0))}


COUNTERS = {"deberta": count_deberta, "swin": count_swin, "wav2vec2": count_wav2vec2}
