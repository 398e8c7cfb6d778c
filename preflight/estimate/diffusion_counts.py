"""Diffusion models: parameter counts walked from diffusers configs, and pipelines as Architectures.

Pure Python (no torch, no diffusers). Each count equals ``sum(p.numel() for p in
model.parameters())`` of the module diffusers instantiates from that config (diffusers 0.3x-0.42
source: ``models/unets/unet_2d_condition.py`` with ``unet_2d_blocks.py`` and ``resnet.py``;
``models/transformers/transformer_flux.py``, ``transformer_sd3.py``, ``dit_transformer_2d.py``;
``models/autoencoders/autoencoder_kl.py`` with ``vae.py``), checked on the meta device in
tests/test_diffusion.py. :func:`from_pipeline` turns a pipeline (the denoiser's config, the VAE's
and the text encoders' parameter counts) into an :class:`~preflight.estimate.arch.Architecture` of
family ``"diffusion"``; the catalog (``architectures/diffusion.json``) and a Hub
``model_index.json`` both go through it. The step estimate lives in
:mod:`preflight.estimate.diffusion`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

__all__ = [
    "DiffusionError",
    "count_denoiser",
    "count_dit",
    "count_flux",
    "count_sd3",
    "count_text_encoder",
    "count_unet",
    "count_vae",
    "denoiser_kind",
    "from_model_index",
    "from_pipeline",
]


class DiffusionError(ValueError):
    """A diffusers config this module cannot read."""


# --------------------------------------------------------------------------- helpers


def _int(cfg: Mapping[str, Any], key: str, default: Optional[int] = None) -> int:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DiffusionError(f"{key}: expected a non-negative integer, got {value!r}")
    return value


def _ints(value: Any, n: int, key: str) -> List[int]:
    """A per-block setting: one int for every block, or a list of n ints."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return [value] * n
    if isinstance(value, (list, tuple)) and len(value) == n and all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        return [int(v) for v in value]
    raise DiffusionError(f"{key}: expected an integer or a list of {n} integers, got {value!r}")


def _strs(cfg: Mapping[str, Any], key: str, default: Sequence[str]) -> List[str]:
    value = cfg.get(key, default)
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, str) for v in value):
        raise DiffusionError(f"{key}: expected a list of block type names, got {value!r}")
    return list(value)


def _linear(i: int, o: int, bias: bool = True) -> int:
    return i * o + (o if bias else 0)


def _conv(i: int, o: int, k: int) -> int:
    return i * o * k * k + o


def _resnet(i: int, o: int, temb: int) -> int:
    """``ResnetBlock2D``: norm1, conv1 3x3, time_emb_proj (when temb), norm2, conv2 3x3, and a 1x1
    conv_shortcut when the channels change."""
    n = 2 * i + _conv(i, o, 3) + 2 * o + _conv(o, o, 3)
    if temb:
        n += _linear(temb, o)
    if i != o:
        n += _conv(i, o, 1)
    return n


def _basic_block(d: int, cross: int, ff_mult: int = 4) -> int:
    """``BasicTransformerBlock`` (layer_norm, GEGLU): attn1 (q,k,v without bias, to_out with),
    attn2 with k,v from the ``cross``-wide text states, LayerNorm x3, GEGLU 2x(4d) + out."""
    attn1 = 3 * d * d + _linear(d, d)
    attn2 = d * d + 2 * cross * d + _linear(d, d)
    ff = _linear(d, 2 * ff_mult * d) + _linear(ff_mult * d, d)
    return 3 * 2 * d + attn1 + attn2 + ff


def _transformer_2d(c: int, heads: int, layers: int, cross: int) -> int:
    """``Transformer2DModel`` (continuous input): GroupNorm, proj_in, ``layers`` blocks, proj_out
    (a 1x1 conv or a linear: the same count)."""
    inner = heads * (c // heads)
    return 2 * c + _linear(c, inner) + layers * _basic_block(inner, cross) + _linear(inner, c)


# --------------------------------------------------------------------------- UNet2DConditionModel


@dataclass(frozen=True)
class _UNet:
    channels: List[int]
    layers: List[int]
    down: List[str]
    up: List[str]
    heads: List[int]
    tlayers: List[int]
    tlayers_up: List[int]
    cross: int
    in_ch: int
    out_ch: int
    mid: str


def _unet(cfg: Mapping[str, Any]) -> _UNet:
    channels = _ints(cfg.get("block_out_channels", [320, 640, 1280, 1280]), len(
        cfg.get("block_out_channels", [320, 640, 1280, 1280]) or [0]), "block_out_channels")
    n = len(channels)
    down = _strs(cfg, "down_block_types", ["CrossAttnDownBlock2D"] * 3 + ["DownBlock2D"])
    up = _strs(cfg, "up_block_types", ["UpBlock2D"] + ["CrossAttnUpBlock2D"] * 3)
    if len(down) != n or len(up) != n:
        raise DiffusionError("down_block_types/up_block_types: one per block_out_channels entry")
    for t in down + up:
        if t not in ("CrossAttnDownBlock2D", "DownBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"):
            raise DiffusionError(f"block type {t!r} is not read (CrossAttn/plain Down/UpBlock2D only)")
    # diffusers' naming quirk: ``attention_head_dim`` holds the number of heads when
    # ``num_attention_heads`` is not given (UNet2DConditionModel.__init__).
    heads_value = cfg.get("num_attention_heads") or cfg.get("attention_head_dim", 8)
    heads = _ints(heads_value, n, "attention_head_dim")
    tl = _ints(cfg.get("transformer_layers_per_block", 1), n, "transformer_layers_per_block")
    rtl = cfg.get("reverse_transformer_layers_per_block")
    tl_up = _ints(rtl, n, "reverse_transformer_layers_per_block") if rtl is not None else list(reversed(tl))
    cross = cfg.get("cross_attention_dim", 1280)
    if isinstance(cross, list):
        cross = cross[0] if cross and len(set(cross)) == 1 else None
    if not isinstance(cross, int) or isinstance(cross, bool) or cross <= 0:
        raise DiffusionError(f"cross_attention_dim: expected one integer, got {cfg.get('cross_attention_dim')!r}")
    mid = cfg.get("mid_block_type", "UNetMidBlock2DCrossAttn") or "UNetMidBlock2DCrossAttn"
    if mid != "UNetMidBlock2DCrossAttn":
        raise DiffusionError(f"mid_block_type {mid!r} is not read")
    if cfg.get("class_embed_type") or cfg.get("encoder_hid_dim") or cfg.get("time_cond_proj_dim"):
        raise DiffusionError("class_embed_type / encoder_hid_dim / time_cond_proj_dim are not read")
    return _UNet(channels, _ints(cfg.get("layers_per_block", 2), n, "layers_per_block"), down, up,
                 heads, tl, tl_up, cross, _int(cfg, "in_channels", 4), _int(cfg, "out_channels", 4), mid)


def count_unet(cfg: Mapping[str, Any]) -> int:
    """Parameters of ``UNet2DConditionModel(**cfg)`` (SD 1.x/2.x, SDXL)."""
    u = _unet(cfg)
    c, n = u.channels, len(u.channels)
    temb = c[0] * 4
    total = _conv(u.in_ch, c[0], 3) + _linear(c[0], temb) + _linear(temb, temb)  # conv_in, time_embedding
    add = cfg.get("addition_embed_type")
    if add == "text_time":  # SDXL: add_embedding = TimestepEmbedding(projection_class_embeddings_input_dim, temb)
        total += _linear(_int(cfg, "projection_class_embeddings_input_dim"), temb) + _linear(temb, temb)
    elif add:
        raise DiffusionError(f"addition_embed_type {add!r} is not read")
    out = c[0]
    for i, kind in enumerate(u.down):
        inp, out = out, c[i]
        for j in range(u.layers[i]):
            total += _resnet(inp if j == 0 else out, out, temb)
            if kind.startswith("CrossAttn"):
                total += _transformer_2d(out, u.heads[i], u.tlayers[i], u.cross)
        if i < n - 1:
            total += _conv(out, out, 3)  # Downsample2D
    # UNetMidBlock2DCrossAttn(num_layers=1): resnet, attention, resnet
    total += 2 * _resnet(c[-1], c[-1], temb) + _transformer_2d(c[-1], u.heads[-1], u.tlayers[-1], u.cross)
    rc, rl, rh = list(reversed(c)), list(reversed(u.layers)), list(reversed(u.heads))
    out = rc[0]
    for i, kind in enumerate(u.up):
        prev, out, inp = out, rc[i], rc[min(i + 1, n - 1)]
        layers = rl[i] + 1
        for j in range(layers):
            skip = inp if j == layers - 1 else out
            total += _resnet((prev if j == 0 else out) + skip, out, temb)
            if kind.startswith("CrossAttn"):
                total += _transformer_2d(out, rh[i], u.tlayers_up[i], u.cross)
        if i < n - 1:
            total += _conv(out, out, 3)  # Upsample2D
    total += 2 * c[0] + _conv(c[0], u.out_ch, 3)  # conv_norm_out, conv_out
    return total


# --------------------------------------------------------------------------- transformers


def _timestep_embedding(d: int) -> int:
    return _linear(256, d) + _linear(d, d)  # TimestepEmbedding(256, d)


def count_flux(cfg: Mapping[str, Any]) -> int:
    """Parameters of ``FluxTransformer2DModel(**cfg)`` (Flux.1 dev/schnell)."""
    hd, heads = _int(cfg, "attention_head_dim", 128), _int(cfg, "num_attention_heads", 24)
    d = hd * heads
    in_ch, patch = _int(cfg, "in_channels", 64), _int(cfg, "patch_size", 1)
    out_ch = cfg.get("out_channels") or in_ch
    total = _timestep_embedding(d) + _linear(_int(cfg, "pooled_projection_dim", 768), d) + _linear(d, d)
    if cfg.get("guidance_embeds"):
        total += _timestep_embedding(d)
    total += _linear(_int(cfg, "joint_attention_dim", 4096), d) + _linear(in_ch, d)
    ff = _linear(d, 4 * d) + _linear(4 * d, d)
    double = 2 * _linear(d, 6 * d) + 6 * _linear(d, d) + 2 * _linear(d, d) + 4 * hd + 2 * ff
    single = _linear(d, 3 * d) + _linear(d, 4 * d) + _linear(5 * d, d) + 3 * _linear(d, d) + 2 * hd
    total += _int(cfg, "num_layers", 19) * double + _int(cfg, "num_single_layers", 38) * single
    return total + _linear(d, 2 * d) + _linear(d, patch * patch * int(out_ch))


def count_sd3(cfg: Mapping[str, Any]) -> int:
    """Parameters of ``SD3Transformer2DModel(**cfg)`` (SD3 medium, SD3.5)."""
    hd, heads = _int(cfg, "attention_head_dim", 64), _int(cfg, "num_attention_heads", 18)
    d = hd * heads
    in_ch, patch, layers = _int(cfg, "in_channels", 16), _int(cfg, "patch_size", 2), _int(cfg, "num_layers", 18)
    out_ch = cfg.get("out_channels") or in_ch
    dual = set(cfg.get("dual_attention_layers") or ())
    qk = 2 * hd if cfg.get("qk_norm") else 0  # rms_norm / layer_norm (no bias) on q and k, per stream
    total = _conv(in_ch, d, patch) + 2 * _timestep_embedding(d) - _linear(256, d) + _linear(
        _int(cfg, "pooled_projection_dim", 2048), d)  # timestep 256->d->d, text pooled->d->d
    total += _linear(_int(cfg, "joint_attention_dim", 4096), _int(cfg, "caption_projection_dim", 1152))
    ff = _linear(d, 4 * d) + _linear(4 * d, d)
    for i in range(layers):
        last = i == layers - 1
        total += _linear(d, (9 if i in dual else 6) * d)
        total += _linear(d, 2 * d) if last else _linear(d, 6 * d)
        total += 7 * _linear(d, d) + (0 if last else _linear(d, d)) + 2 * qk
        if i in dual:
            total += 4 * _linear(d, d) + qk
        total += ff + (0 if last else ff)
    return total + _linear(d, 2 * d) + _linear(d, patch * patch * int(out_ch))


def count_dit(cfg: Mapping[str, Any]) -> int:
    """Parameters of ``DiTTransformer2DModel(**cfg)`` (``facebook/DiT-XL-2-256``): diffusers
    gives every block its own timestep and class embedding (AdaLayerNormZero with
    CombinedTimestepLabelEmbeddings), so the total is above the paper's 675M."""
    hd, heads = _int(cfg, "attention_head_dim", 72), _int(cfg, "num_attention_heads", 16)
    d = hd * heads
    in_ch, patch = _int(cfg, "in_channels", 4), _int(cfg, "patch_size", 2)
    out_ch = cfg.get("out_channels") or in_ch
    if cfg.get("norm_type", "ada_norm_zero") != "ada_norm_zero":
        raise DiffusionError("DiT: only norm_type ada_norm_zero is read")
    classes = _int(cfg, "num_embeds_ada_norm", 1000) + 1  # + the classifier-free-guidance label
    block = _timestep_embedding(d) + classes * d + _linear(d, 6 * d) + 4 * _linear(d, d) + _linear(
        d, 4 * d) + _linear(4 * d, d)
    return _conv(in_ch, d, patch) + _int(cfg, "num_layers", 28) * block + _linear(d, 2 * d) + _linear(
        d, patch * patch * int(out_ch))


def count_vae(cfg: Mapping[str, Any]) -> int:
    """Parameters of ``AutoencoderKL(**cfg)`` (encoder, decoder, quant convs)."""
    c = cfg.get("block_out_channels", [64])
    if not isinstance(c, list) or not c:
        raise DiffusionError("block_out_channels: expected a list")
    c = _ints(c, len(c), "block_out_channels")
    n, lpb = len(c), _int(cfg, "layers_per_block", 1)
    lat, in_ch, out_ch = _int(cfg, "latent_channels", 4), _int(cfg, "in_channels", 3), _int(cfg, "out_channels", 3)
    mid = 2 * _resnet(c[-1], c[-1], 0) + 2 * c[-1] + 4 * _linear(c[-1], c[-1])  # 2 resnets + attention
    enc = _conv(in_ch, c[0], 3)
    out = c[0]
    for i in range(n):
        inp, out = out, c[i]
        enc += sum(_resnet(inp if j == 0 else out, out, 0) for j in range(lpb))
        if i < n - 1:
            enc += _conv(out, out, 3)
    enc += mid + 2 * c[-1] + _conv(c[-1], 2 * lat, 3)
    dec = _conv(lat, c[-1], 3) + mid
    rc = list(reversed(c))
    out = rc[0]
    for i in range(n):
        prev, out = out, rc[i]
        dec += sum(_resnet(prev if j == 0 else out, out, 0) for j in range(lpb + 1))
        if i < n - 1:
            dec += _conv(out, out, 3)
    dec += 2 * c[0] + _conv(c[0], out_ch, 3)
    quant = 0
    if cfg.get("use_quant_conv", True):
        quant += _conv(2 * lat, 2 * lat, 1)
    if cfg.get("use_post_quant_conv", True):
        quant += _conv(lat, lat, 1)
    return enc + dec + quant


_COUNTERS = {
    "UNet2DConditionModel": count_unet,
    "FluxTransformer2DModel": count_flux,
    "SD3Transformer2DModel": count_sd3,
    "DiTTransformer2DModel": count_dit,
}


def denoiser_kind(cfg: Mapping[str, Any]) -> str:
    """"unet" | "flux" | "sd3" | "dit" from the config's ``_class_name``."""
    name = cfg.get("_class_name") if isinstance(cfg, Mapping) else None
    kinds = {"UNet2DConditionModel": "unet", "FluxTransformer2DModel": "flux",
             "SD3Transformer2DModel": "sd3", "DiTTransformer2DModel": "dit"}
    if name == "Transformer2DModel" and cfg.get("norm_type") == "ada_norm_zero":
        return "dit"  # older DiT checkpoints name the generic class
    if name not in kinds:
        raise DiffusionError(f"_class_name {name!r}: not a diffusers denoiser this reader knows "
                             f"({', '.join(sorted(kinds))})")
    return kinds[str(name)]


def count_denoiser(cfg: Mapping[str, Any]) -> int:
    kind = denoiser_kind(cfg)
    return {"unet": count_unet, "flux": count_flux, "sd3": count_sd3, "dit": count_dit}[kind](cfg)


# --------------------------------------------------------------------------- pipeline -> Architecture


def from_pipeline(pipeline: Mapping[str, Any], *, name: str, source: str = "") -> Any:
    """An Architecture (family ``"diffusion"``) from a pipeline description:
    ``{"denoiser": <unet/transformer config.json>, "vae": <vae config.json>,
    "text_encoders": [{"name":..., "params": N}, ...], "resolution": 1024, "text_tokens": 77}``.
    """
    from preflight.estimate.arch import Architecture
    from preflight.estimate.vae_encode import vae_layers_per_block

    if not isinstance(pipeline, Mapping) or not isinstance(pipeline.get("denoiser"), Mapping):
        raise DiffusionError("a diffusion pipeline needs its denoiser config ('denoiser')")
    den = pipeline["denoiser"]
    kind = denoiser_kind(den)
    params = count_denoiser(den)
    vae_cfg = pipeline.get("vae") or {}
    vae = count_vae(vae_cfg) if vae_cfg else 0
    encoders = []
    for enc in pipeline.get("text_encoders") or []:
        if not isinstance(enc, Mapping) or not isinstance(enc.get("params"), int):
            raise DiffusionError("text_encoders: each needs an integer 'params'")
        encoders.append({"name": str(enc.get("name", "")), "params": int(enc["params"]),
                         "width": int(enc.get("width", 0) or 0)})
    resolution = int(pipeline.get("resolution", 512) or 512)
    if kind == "unet":
        u = _unet(den)
        hidden, layers, heads = u.channels[-1], sum(u.tlayers), max(u.heads)
    else:
        heads = _int(den, "num_attention_heads", 24)
        hidden = heads * _int(den, "attention_head_dim", 64)
        layers = _int(den, "num_layers", 0) + _int(den, "num_single_layers", 0)
    extra: Dict[str, Any] = {
        "diffusion_kind": kind, "denoiser": dict(den), "vae_params": vae,
        "vae_channels": list(vae_cfg.get("block_out_channels", [128, 256, 512, 512])),
        "vae_layers_per_block": vae_layers_per_block(vae_cfg),
        "latent_channels": int(vae_cfg.get("latent_channels", den.get("in_channels", 4)) or 4),
        "text_encoders": encoders, "text_tokens": int(pipeline.get("text_tokens", 77) or 77),
    }
    return Architecture(
        name=name, model_type=str(den.get("_class_name")), family="diffusion", hidden_size=hidden,
        num_layers=layers, num_heads=heads, num_kv_heads=heads, head_dim=hidden // max(heads, 1),
        intermediate_size=4 * hidden, vocab_size=0, tie_embeddings=False, gated_mlp=kind == "unet",
        image_size=resolution, params_total=params, params_active=params, params_source="formula",
        source=source, extra=extra)


def count_text_encoder(cfg: Mapping[str, Any]) -> int:
    """Parameters of a pipeline's text encoder from its transformers ``config.json``:
    ``CLIPTextModel`` / ``CLIPTextModelWithProjection`` (token + position embeddings, pre-LN
    blocks with biased q/k/v/out and a 2-layer MLP, final LayerNorm, the bias-free text
    projection) or ``T5EncoderModel`` (shared embedding, bias-free attention with a relative
    position bias in the first layer, gated-GELU or ReLU MLP, RMS LayerNorms)."""
    arch = (cfg.get("architectures") or [""])[0] if isinstance(cfg.get("architectures"), list) else ""
    mt = cfg.get("model_type", "")
    if mt in ("clip_text_model", "clip"):
        d, ff = _int(cfg, "hidden_size", 512), _int(cfg, "intermediate_size", 2048)
        n = _int(cfg, "vocab_size", 49408) * d + _int(cfg, "max_position_embeddings", 77) * d
        n += _int(cfg, "num_hidden_layers", 12) * (4 * _linear(d, d) + 4 * d + _linear(d, ff) + _linear(ff, d)) + 2 * d
        if arch == "CLIPTextModelWithProjection":
            n += d * _int(cfg, "projection_dim", 512)
        return n
    if mt in ("t5", "umt5", "mt5"):
        d, ff, kv, heads = (_int(cfg, "d_model", 512), _int(cfg, "d_ff", 2048), _int(cfg, "d_kv", 64),
                            _int(cfg, "num_heads", 8))
        gated = str(cfg.get("feed_forward_proj", "relu")).startswith("gated")
        layer = 4 * d * kv * heads + (3 if gated else 2) * d * ff + 2 * d
        buckets = _int(cfg, "relative_attention_num_buckets", 32) * heads
        per_layer_bias = mt == "umt5"
        n_layers = _int(cfg, "num_layers", 6)
        return _int(cfg, "vocab_size", 32128) * d + n_layers * layer + buckets * (n_layers if per_layer_bias else 1) + d
    raise DiffusionError(f"text encoder model_type {mt!r} is not read (CLIP text, T5 encoder)")


def from_model_index(index: Mapping[str, Any], configs: Mapping[str, Mapping[str, Any]], *, name: str,
                     source: str = "", resolution: Optional[int] = None) -> Any:
    """An Architecture from a diffusers ``model_index.json`` and the ``config.json`` of its
    components (``configs["unet"]``, ``configs["vae"]``, ``configs["text_encoder_2"]``...)."""
    if not isinstance(index, Mapping) or not isinstance(configs, Mapping):
        raise DiffusionError("model_index.json: expected a JSON object")
    denoiser_key = "unet" if "unet" in index else "transformer" if "transformer" in index else None
    if denoiser_key is None or not isinstance(configs.get(denoiser_key), Mapping):
        raise DiffusionError("model_index.json names no unet or transformer (or its config.json is missing)")
    den = dict(configs[denoiser_key])
    kind = denoiser_kind(den)
    encoders = []
    for key in sorted(k for k in index if k.startswith("text_encoder")):
        cfg = configs.get(key)
        if isinstance(cfg, Mapping):
            width = cfg.get("hidden_size") or cfg.get("d_model") or 0
            encoders.append({"name": key, "params": count_text_encoder(cfg), "width": int(width)})
    vae = configs.get("vae") if isinstance(configs.get("vae"), Mapping) else {}
    sample = den.get("sample_size")
    if resolution is None:
        resolution = int(sample) * 8 if isinstance(sample, int) and kind in ("unet", "dit") else 1024
    tokens = {"unet": 77, "flux": 512, "sd3": 77 + 256, "dit": 0}[kind]
    return from_pipeline({"denoiser": den, "vae": vae, "text_encoders": encoders, "resolution": resolution,
                          "text_tokens": tokens}, name=name, source=source)
