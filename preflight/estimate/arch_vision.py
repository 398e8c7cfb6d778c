"""Vision readers split from :mod:`preflight.estimate.arch` (no logic change): ViT, DeiT and
DINOv2, the CLIP/SigLIP and Qwen2-VL vision towers of multimodal configs, CLIP, ResNet and
ConvNeXt. :mod:`preflight.estimate.arch` imports this module on first use; the records and config access
come from :mod:`preflight.estimate.arch_config`."""

from __future__ import annotations

from typing import Any, Dict, Tuple

from preflight.estimate.arch_config import (
    Architecture,
    ArchitectureError,
    Cfg,
    config_object,
    has_head,
    num_labels,
)


def _read_vit(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    hidden = cfg.integer("hidden_size")
    heads = cfg.integer("num_attention_heads")
    teacher = has_head(cfg, "ForImageClassificationWithTeacher")
    classifier = num_labels(cfg) if (has_head(cfg, "ForImageClassification") or teacher) else 0
    swiglu = mt == "dinov2" and cfg.flag("use_swiglu_ffn", False)
    if mt == "dinov2" and cfg.raw("intermediate_size") is None:
        # Dinov2Config has mlp_ratio, not intermediate_size; the SwiGLU MLP (giant) rounds
        # 2/3 of the ratio's width up to a multiple of 8 (Dinov2SwiGLUFFN)
        ratio = cfg.raw("mlp_ratio", default=4)
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio < 1e4:
            raise ArchitectureError(f"{name}: 'mlp_ratio' must be a positive number, got {ratio!r}")
        inter = int(hidden * ratio)
        if swiglu:
            inter = (int(inter * 2 / 3) + 7) // 8 * 8
    else:
        inter = cfg.integer("intermediate_size")
    return Architecture(
        name=name, model_type=mt, family="vision", hidden_size=hidden,
        num_layers=cfg.integer("num_hidden_layers"), num_heads=heads, num_kv_heads=heads,
        head_dim=hidden // max(heads, 1), intermediate_size=inter,
        vocab_size=0, tie_embeddings=False, gated_mlp=swiglu,
        image_size=cfg.integer("image_size", default=224),
        patch_size=cfg.integer("patch_size"), num_channels=cfg.integer("num_channels", default=3),
        source=source,
        extra={"layout": "vit", "qkv_bias": cfg.flag("qkv_bias", True),
               # DeiT adds a distillation token (and its own head when distilled), DINOv2 a
               # mask token and two LayerScale vectors per layer, no pooler
               "pooler": classifier == 0 and mt in ("vit", "deit"), "classifier": classifier,
               "extra_tokens": 1 if mt == "deit" else 0,
               "mask_token": mt == "dinov2",
               "layerscale": mt == "dinov2",
               "distilled_head": classifier if teacher else 0,
               "cls_on_patch_mean": mt == "dinov2"})


def _vision_tower(mt: str, cfg: Cfg) -> Tuple[int, Dict[str, Any]]:
    """Parameters of a CLIP or SigLIP vision tower; (0, {}) for a vision config we cannot read."""
    if mt not in ("clip_vision_model", "siglip_vision_model"):
        return 0, {}
    d = cfg.integer("hidden_size")
    inter = cfg.integer("intermediate_size")
    layers = cfg.integer("num_hidden_layers")
    image = cfg.integer("image_size")
    patch = cfg.integer("patch_size")
    channels = cfg.integer("num_channels", default=3)
    patches = (image // patch) ** 2
    layer = 4 * (d * d + d) + 2 * (2 * d) + (d * inter + inter) + (inter * d + d)
    if mt == "clip_vision_model":
        embed = d + channels * patch * patch * d + (patches + 1) * d  # class token, conv (no bias)
        total = embed + 2 * d + layers * layer + 2 * d  # pre and post LayerNorm
    else:
        embed = channels * patch * patch * d + d + patches * d
        total = embed + layers * layer + 2 * d  # post LayerNorm
        if cfg.flag("vision_use_head", True):
            heads = cfg.integer("num_attention_heads")
            # MAP head: probe, MultiheadAttention (in_proj 3d*d+3d, out d*d+d), LayerNorm, MLP
            total += d + (3 * d * d + 3 * d) + (d * d + d) + 2 * d + (d * inter + inter) + (inter * d + d)
            del heads
    info = {"hidden_size": d, "num_layers": layers, "image_size": image, "patch_size": patch,
            "num_channels": channels, "intermediate_size": inter,
            "num_heads": cfg.integer("num_attention_heads", default=max(d // 64, 1)),
            "mlp_act": _tower_act(mt, cfg)}
    return total, info


#: est63: the MLP activation a tower's config class uses when ``hidden_act`` is not written
#: (transformers ``CLIPTextConfig`` / ``CLIPVisionConfig``: ``hidden_act="quick_gelu"``;
#: ``SiglipVisionConfig``: ``"gelu_pytorch_tanh"``), as the Hub's configs omit default keys
_TOWER_ACT_DEFAULT = {"clip_text_model": "quick_gelu", "clip_vision_model": "quick_gelu",
                      "siglip_vision_model": "gelu_pytorch_tanh"}


def _tower_act(mt: str, cfg: Cfg) -> str:
    default = _TOWER_ACT_DEFAULT.get(mt, "gelu")
    return str(cfg.raw("hidden_act", default=default) or default).lower()


def _qwen_vl_tower(mt: str, cfg: Cfg, text_hidden: int) -> Tuple[int, int, Dict[str, Any]]:
    """Qwen2-VL / Qwen2.5-VL vision tower: (tower params, patch-merger params, info)."""
    channels = cfg.integer("in_channels", "in_chans", default=3)
    patch = cfg.integer("patch_size", "spatial_patch_size", default=14)
    temporal = cfg.integer("temporal_patch_size", default=2)
    merge = cfg.integer("spatial_merge_size", default=2)
    depth = cfg.integer("depth", "num_hidden_layers", default=32)
    attn_of = lambda e: (e * 3 * e + 3 * e) + (e * e + e)  # noqa: E731 - qkv and proj, biased
    if mt == "qwen2_vl":
        e = cfg.integer("embed_dim", default=1280)
        out = cfg.integer("hidden_size", default=text_hidden)
        ratio = cfg.raw("mlp_ratio", default=4)
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio < 1e4:
            raise ArchitectureError(f"{cfg.where}: 'mlp_ratio' must be a positive number, got {ratio!r}")
        m = int(e * ratio)
        block = 2 * (2 * e) + attn_of(e) + (e * m + m) + (m * e + e)
        merger_norm = 2 * e
    else:
        e = cfg.integer("hidden_size", default=1280)
        out = cfg.integer("out_hidden_size", default=text_hidden)
        inter = cfg.integer("intermediate_size", default=3420)
        block = 2 * e + attn_of(e) + 2 * (e * inter + inter) + (inter * e + e)
        merger_norm = e
    wide = e * merge * merge
    tower = channels * temporal * patch * patch * e + depth * block
    merger = merger_norm + (wide * wide + wide) + (wide * out + out)
    return tower, merger, {"hidden_size": e, "num_layers": depth, "patch_size": patch,
                           "num_channels": channels, "image_size": 0}


def _read_clip(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    text = Cfg(config_object(cfg.raw("text_config", default={}), name, "text_config"),
                "clip_text_model", f"{name} text_config")
    vision = Cfg(config_object(cfg.raw("vision_config", default={}), name, "vision_config"),
                  "clip_vision_model", f"{name} vision_config")
    projection = cfg.integer("projection_dim", default=512)
    vision_params, info = _vision_tower("clip_vision_model", vision)
    hidden = text.integer("hidden_size")
    heads = text.integer("num_attention_heads")
    return Architecture(
        name=name, model_type=mt, family="multimodal", hidden_size=hidden,
        num_layers=text.integer("num_hidden_layers"), num_heads=heads, num_kv_heads=heads,
        head_dim=hidden // max(heads, 1), intermediate_size=text.integer("intermediate_size"),
        vocab_size=text.integer("vocab_size"), tie_embeddings=False, gated_mlp=False,
        max_position=text.integer("max_position_embeddings"), image_size=info["image_size"],
        patch_size=info["patch_size"], num_channels=info["num_channels"], source=source,
        extra={"layout": "clip", "vision_params": vision_params, "mlp_act": _tower_act("clip_text_model", text),
               "projector_params": projection * (hidden + info["hidden_size"]) + 1,
               "vision": info})


def _read_resnet(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    widths = cfg.integers("hidden_sizes")
    depths = cfg.integers("depths")
    if len(widths) != len(depths):
        raise ArchitectureError(f"{name}: 'hidden_sizes' and 'depths' differ in length")
    classifier = num_labels(cfg) if has_head(cfg, "ForImageClassification") else 0
    extra: Dict[str, Any] = {"layout": mt, "hidden_sizes": widths, "depths": depths,
                             "classifier": classifier}
    if mt == "resnet":
        extra["embedding_size"] = cfg.integer("embedding_size", default=64)
        extra["layer_type"] = str(cfg.raw("layer_type", default="bottleneck"))
    else:
        extra["patch_size"] = cfg.integer("patch_size", default=4)
        extra["layer_scale"] = float(cfg.raw("layer_scale_init_value", default=1e-6) or 0) > 0
    return Architecture(
        name=name, model_type=mt, family="cnn", hidden_size=widths[-1], num_layers=sum(depths),
        num_heads=0, num_kv_heads=0, head_dim=0, intermediate_size=0, vocab_size=0,
        tie_embeddings=False, gated_mlp=False, image_size=cfg.integer("image_size", default=224),
        num_channels=cfg.integer("num_channels", default=3), source=source, extra=extra)
