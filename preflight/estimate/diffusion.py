"""Diffusion models: read diffusers configs, count their parameters, estimate a training step.

Pure Python (no torch, no diffusers). Three things live here:

* **Parameter counts** (in :mod:`preflight.estimate.diffusion_counts`, re-exported here) walked from a diffusers ``config.json`` the way diffusers builds the
  module (diffusers 0.3x-0.42 source: ``models/unets/unet_2d_condition.py`` with
  ``unet_2d_blocks.py`` and ``resnet.py``; ``models/transformers/transformer_flux.py``,
  ``transformer_sd3.py``, ``dit_transformer_2d.py``; ``models/autoencoders/autoencoder_kl.py``
  with ``vae.py``). Each count equals ``sum(p.numel() for p in model.parameters())`` of the module
  diffusers instantiates from that config (checked on the meta device: tests/test_diffusion.py).
* :func:`from_pipeline`: a pipeline (the denoiser's config, the VAE's and the text encoders'
  parameter counts) as an :class:`~preflight.estimate.arch.Architecture` of family
  ``"diffusion"``; the catalog (``architectures/diffusion.json``) and a Hub ``model_index.json``
  both go through it.
* :func:`estimate_diffusion`: peak memory per GPU of one training (or denoising) step of the
  diffusers training examples (``train_text_to_image*.py``, ``train_dreambooth_lora*.py``): the
  trained denoiser (full or LoRA), the frozen text encoders and VAE in the weight dtype,
  gradients, AdamW states (8-bit with ``adamw-8bit``), an EMA copy, and the activations saved for
  backward at the latent resolution (image / 8). Every byte count is derived from what the ops
  save (listed at each function); no constant is fitted to a measurement.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from preflight.estimate.diffusion_counts import (
    DiffusionError,
    _conv,
    _int,
    _linear,
    _resnet,
    _transformer_2d,
    _unet,
    count_denoiser,
    count_dit,
    count_flux,
    count_sd3,
    count_text_encoder,
    count_unet,
    count_vae,
    denoiser_kind,
    from_model_index,
    from_pipeline,
)

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
    "estimate_diffusion",
    "from_model_index",
    "from_pipeline",
]


# --------------------------------------------------------------------------- activations
#
# Bytes saved for backward, per element, under autocast (activation dtype ``a`` = 2 bytes;
# fp32 training: a = 4). torch autocast runs group_norm and layer_norm in float32 ("CUDA Ops
# that can autocast to float32", torch.amp docs), so a norm saves a float32 copy of its input
# (4 bytes) and hands a float32 output on; each Linear/Conv casts its input to ``a`` and saves
# that cast (autocast caches casts of leaf weights only, so q, k and v each cast the same
# input). SiLU/GELU save their input; a residual add and ``torch.cat`` save nothing;
# ``F.dropout(p=0)`` returns its input (no mask). SDPA's memory-efficient and flash kernels
# (and xformers) save q, k, v, the output and a float32 logsumexp, never the L x L scores.


def _norm_chain(c: int, a: int, nb: int = 4) -> int:
    """GroupNorm -> SiLU -> conv (a ResnetBlock2D half): fp32 input copy, fp32 norm output
    (SiLU's saved input), the conv's cast of SiLU's output."""
    return c * (nb + nb + a)


def _resnet_act(ci: int, co: int, a: int, nb: int = 4) -> int:
    # conv_shortcut saves its input: the very tensor GroupNorm saved unless autocast made GroupNorm
    # take a float32 copy
    return _norm_chain(ci, a, nb) + _norm_chain(co, a, nb) + (a * ci if ci != co and nb != a else 0)


def _block_act(d: int, a: int, frozen: bool, nb: int = 4) -> int:
    """One BasicTransformerBlock per token (the text-side tensors of attn2 are counted apart):
    norm1 fp32 input + q/k/v casts; attn1 q, k, v and the output (the flash/memory-efficient
    kernels allocate it (B, L, heads, dim), so the reshape for to_out is a view); norm2 fp32 input
    + the to_q cast, attn2 q and output; norm3 fp32 input + the GEGLU proj cast, its
    8d output (GELU keeps the gate view alive), GELU's 4d output, the product (ff out's input).
    A frozen base (LoRA on the attention projections) does not save the ff linears' inputs."""
    qkv = 3 if nb != a else 1  # one cast per projection; none when the norm already gives ``a``
    n = (nb * d + qkv * a * d) + 4 * a * d + (nb * d + a * d) + 2 * a * d + nb * d + (8 + 4) * a * d
    if not frozen:
        n += a * d + 4 * a * d
    return n


def unet_activations(arch: Any, batch: int, res: int, a: int, ckpt: bool, frozen: bool,
                     attention: str, nb: int = 4) -> Tuple[List[Tuple[int, int]], int]:
    """(units, largest recomputed unit) of a UNet2DConditionModel step on ``batch`` images of
    ``res`` pixels: ``units`` lists, in forward order, each module's saved bytes at the end of
    forward and its parameter count (backward frees the one and creates the other's gradients
    in reverse order); the second value is the largest checkpointed unit's full activations,
    which backward recomputes one at a time (0 without checkpointing)."""
    u = _unet(arch.extra["denoiser"])
    tokens_text = int(arch.extra.get("text_tokens", 77))
    lat = max(res // 8, 1)
    c, n = u.channels, len(u.channels)
    units: List[Tuple[int, int]] = []
    unit = 0
    side = lat
    temb = c[0] * 4

    def attn(ch: int, heads: int, layers: int, pos: int) -> Tuple[int, int]:
        inner = heads * (ch // heads)
        per_block = pos * _block_act(inner, a, frozen, nb) + a * tokens_text * (2 * inner + u.cross) * 2
        if attention == "eager":  # the math path keeps softmax(QK^T) for both attentions
            per_block += 2 * a * heads * pos * (pos + tokens_text)
        outer = pos * (ch * (nb + a) + (0 if frozen else 2 * a * inner))  # GroupNorm, proj_in/out casts
        if ckpt:
            return outer + layers * pos * a * inner, per_block
        return outer + layers * per_block, 0

    def res_(ci: int, co: int, pos: int) -> Tuple[int, int]:
        full = pos * _resnet_act(ci, co, a, nb)
        return (pos * a * ci, full) if ckpt else (full, 0)

    def add(pair: Tuple[int, int], params: int = 0) -> None:
        nonlocal unit
        units.append((batch * pair[0], params))
        unit = max(unit, batch * pair[1])

    pos = side * side
    add((pos * a * u.in_ch, 0), _conv(u.in_ch, c[0], 3) + _linear(c[0], temb) + _linear(temb, temb))
    out = c[0]
    skips = [c[0]]
    for i, kind in enumerate(u.down):
        inp, out = out, c[i]
        for j in range(u.layers[i]):
            add(res_(inp if j == 0 else out, out, pos), _resnet(inp if j == 0 else out, out, temb))
            if kind.startswith("CrossAttn"):
                add(attn(out, u.heads[i], u.tlayers[i], pos), _transformer_2d(out, u.heads[i], u.tlayers[i], u.cross))
            skips.append(out)
        if i < n - 1:
            add((pos * a * out, 0), _conv(out, out, 3))  # Downsample2D conv input
            side = max(side // 2, 1)
            pos = side * side
            skips.append(out)
    add(res_(c[-1], c[-1], pos), _resnet(c[-1], c[-1], temb))
    add(attn(c[-1], u.heads[-1], u.tlayers[-1], pos), _transformer_2d(c[-1], u.heads[-1], u.tlayers[-1], u.cross))
    add(res_(c[-1], c[-1], pos), _resnet(c[-1], c[-1], temb))
    rc, rl, rh = list(reversed(c)), list(reversed(u.layers)), list(reversed(u.heads))
    out = rc[0]
    for i, kind in enumerate(u.up):
        prev, out = out, rc[i]
        for j in range(rl[i] + 1):
            skip = skips.pop() if skips else out
            ci = (prev if j == 0 else out) + skip
            add(res_(ci, out, pos), _resnet(ci, out, temb))
            if kind.startswith("CrossAttn"):
                add(attn(out, rh[i], u.tlayers_up[i], pos), _transformer_2d(out, rh[i], u.tlayers_up[i], u.cross))
        if i < n - 1:
            side *= 2
            pos = side * side
            add((pos * a * out, 0), _conv(out, out, 3))  # Upsample2D: the conv's input at twice the side
    add((pos * _norm_chain(c[0], a, nb), 0), 2 * c[0] + _conv(c[0], u.out_ch, 3))  # conv_norm_out -> SiLU -> conv_out
    return units, unit


def transformer_activations(arch: Any, batch: int, res: int, a: int, ckpt: bool, frozen: bool,
                            attention: str, nb: int = 4) -> Tuple[List[Tuple[int, int]], int]:
    """Same for the transformer denoisers (Flux, SD3, DiT). Per token of a double (two-stream)
    block and stream: adaLN-zero norm (fp32 input copy + the fp32 normed output the modulation
    multiplies) and the q/k/v casts; q, k, v, out, reshaped out; the gate product's input; norm2
    (fp32 copy, fp32 output) and the ff cast; GELU's 4d input and the ff out's 4d input; the
    second gate. Flux adds RMSNorm on q and k (fp32 copy and normed output each) and RoPE
    (fp32 copies of x and its rotation for q and k). Single (Flux) blocks run one stream of
    image + text tokens: norm, four input casts, the 4d MLP (GELU input, output), q, k, v, out,
    the 5d concatenation that proj_out saves, the gate."""
    den, kind = arch.extra["denoiser"], arch.extra["diffusion_kind"]
    heads = _int(den, "num_attention_heads", 24)
    d = heads * _int(den, "attention_head_dim", 64)
    lat = max(res // 8, 1)
    patch = 2 if kind == "flux" else _int(den, "patch_size", 2)  # Flux packs 2x2 latents per token
    img = (lat // patch) ** 2
    txt = 0 if kind == "dit" else int(arch.extra.get("text_tokens", 77))
    extra_qk = 32 * d if kind == "flux" or den.get("qk_norm") else 0  # RMSNorm + RoPE fp32 copies
    qkv = 3 if nb != a else 1
    double = (2 * nb * d + qkv * a * d) + extra_qk + 4 * a * d + a * d + (2 * nb * d + a * d) + 8 * a * d + a * d
    if frozen:  # the frozen ff linears save no input: the ff cast and the 4d product
        double -= a * d + 4 * a * d
    single = 2 * nb * d + (4 if nb != a else 1) * a * d + 4 * a * d + 4 * a * d + 5 * a * d + a * d + extra_qk
    streams = img + txt
    layers = _int(den, "num_layers", 19 if kind == "flux" else 24)
    singles = _int(den, "num_single_layers", 0) if kind == "flux" else 0
    if attention == "eager":
        double += 2 * a * heads * (streams)
        single += 2 * a * heads * (streams)
    total = count_denoiser(den)
    blocks = [(double, streams)] * layers + [(single, streams)] * singles
    per_params = total // max(len(blocks), 1)
    units = [(batch * tokens * a * d if ckpt else batch * tokens * act, per_params) for act, tokens in blocks]
    unit = batch * streams * max(double if layers else 0, single if singles else 0) if ckpt else 0
    # the final adaLN (fp32 normed output) and proj_out's cast, over the image tokens
    units.append((batch * img * (nb * d + 2 * a * d), total - per_params * len(blocks)))
    return units, unit


# --------------------------------------------------------------------------- the estimate


def _trainable_lora(arch: Any, r: int) -> int:
    """LoRA parameters on the attention projections (the diffusers examples' targets:
    to_q, to_k, to_v, to_out.0; Flux/SD3 also add_q/k/v_proj and to_add_out)."""
    den, kind = arch.extra["denoiser"], arch.extra["diffusion_kind"]
    if kind == "unet":
        u = _unet(den)
        total = 0
        rc, rl, rh = list(reversed(u.channels)), list(reversed(u.layers)), list(reversed(u.heads))

        def per(ch: int, heads: int, layers: int) -> int:
            d = heads * (ch // heads)
            return layers * r * (4 * 2 * d + 2 * d + 2 * (u.cross + d) + 2 * d)

        for i, kind_ in enumerate(u.down):
            if kind_.startswith("CrossAttn"):
                total += u.layers[i] * per(u.channels[i], u.heads[i], u.tlayers[i])
        total += per(u.channels[-1], u.heads[-1], u.tlayers[-1])
        for i, kind_ in enumerate(u.up):
            if kind_.startswith("CrossAttn"):
                total += (rl[i] + 1) * per(rc[i], rh[i], u.tlayers_up[i])
        return total
    heads = _int(den, "num_attention_heads", 24)
    d = heads * _int(den, "attention_head_dim", 64)
    if kind == "flux":
        return r * 2 * d * (8 * _int(den, "num_layers", 19) + 3 * _int(den, "num_single_layers", 38))
    if kind == "sd3":
        return r * 2 * d * 8 * _int(den, "num_layers", 24)
    return r * 2 * d * 4 * _int(den, "num_layers", 28)


def _optimizer_bytes(optimizer: str, n: int) -> int:
    """AdamW: exp_avg + exp_avg_sq in fp32; bitsandbytes AdamW8bit: one byte each plus an fp32
    absmax per 2048-element block (blockwise quantization); SGD: none; SGD momentum, Lion: one."""
    if optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return 2 * n + 2 * 4 * (n // 2048 + 1)
    if optimizer == "adamw-4bit":   # torchao: two 4-bit codes a byte, an fp32 scale per 128 (constants)
        return n + 2 * 4 * (n // 128 + 1)
    if optimizer == "sgd":
        return 0
    if optimizer in ("sgd-momentum", "lion"):
        return 4 * n
    if optimizer == "adafactor":
        return 4 * n // 64 + 4 * 1024  # factored second moments: rows + columns (small)
    return 8 * n


def estimate_diffusion(inp: Any) -> Any:
    """Peak memory per GPU of one step of ``inp`` on a diffusion pipeline (see the module doc)."""
    from preflight.estimate import constants as C
    from preflight.estimate.model import Estimate

    arch = inp.arch
    res = int(inp.image_size or arch.image_size or 512)
    batch = max(int(inp.micro_batch or 1), 1)
    precision = inp.precision or "amp-bf16"
    a = 4 if precision == "fp32" else 2
    wbytes = 4 if precision in ("fp32", "amp-bf16", "amp-fp16") else 2
    ti = bool(inp.textual_inversion) and inp.mode == "train"
    lora = bool(inp.lora_r) or ti  # TI: a frozen denoiser, as under LoRA
    train = inp.mode == "train"
    notes: List[str] = []
    den = int(inp.params or arch.params_total)
    frozen_bytes = 2 if precision != "fp32" else 4  # the examples cast frozen models to weight_dtype
    terms: Dict[str, int] = {}
    from preflight.estimate import diffusion_memory as dm
    from preflight.estimate import vae_encode as ve
    dm.check_flags(inp)
    ve.check_vae_dtype(inp)
    kind = arch.extra["diffusion_kind"]
    quant = inp.quant if (lora or not train) else None
    if quant:
        terms["denoiser_weights"] = dm.quantized_bytes(den, quant, dm.rows_estimate(den, arch),
                                                       bool(getattr(inp, "double_quant", False)))
        terms["dequantized_layer"] = dm.largest_linear(arch) * 2
        notes.extend(dm.quant_notes(inp, kind))
    elif lora or not train:
        terms["denoiser_weights"] = den * frozen_bytes
    else:
        terms["denoiser_weights"] = den * wbytes
    text = sum(e["params"] for e in arch.extra.get("text_encoders", []))
    if not inp.cache_text_embeddings:
        # TI keeps the text encoder fp32; its token table is the trained weight (counted below)
        terms["text_encoders"] = max(text - dm.ti_trainable(arch), 0) * 4 if ti else text * frozen_bytes
    if not inp.cache_latents:
        terms["vae"] = int(arch.extra.get("vae_params", 0)) * ve.vae_elem_bytes(inp, frozen_bytes)
    trainable = dm.ti_trainable(arch) if ti else _trainable_lora(arch, int(inp.lora_r)) if lora else den
    if ti:
        notes.append(dm.TI_NOTE)
    steady: Dict[str, int] = dict(terms)
    if train:
        if lora:
            steady["lora_weights"] = trainable * 4  # cast_training_params: adapters in fp32
        steady["optimizer_states"] = _optimizer_bytes(inp.optimizer or "adamw", trainable)
        if getattr(inp, "ema", False):
            steady["ema_copy"] = trainable * 4  # EMAModel shadow parameters, fp32, on the GPU
            notes.append("EMA (--use_ema): an fp32 shadow copy of the trained weights on the GPU")
    fn = unet_activations if kind == "unet" else transformer_activations
    attention = inp.attention or "sdpa"
    ckpt = bool(inp.grad_ckpt) and train
    # norms save float32 under CUDA autocast (group_norm/layer_norm autocast to float32); on the
    # CPU autocast keeps them in the lower precision; without autocast everything is ``a``
    nb = 4 if (inp.device != "cpu" or precision == "fp32") else a
    if precision in ("fp16", "bf16"):
        nb = 2
    units, unit = fn(arch, batch, res, a, ckpt if train else True, lora or not train, attention, nb)
    if train:
        units = dm.amp_residual_stream(units, kind, precision, ckpt)
    casts = 0
    if train and not lora and precision in ("amp-bf16", "amp-fp16"):
        # autocast keeps the 16-bit cast of every fp32 weight a Linear/Conv used (its cast cache
        # of leaf tensors, cleared when the autocast region ends); each op outside a checkpoint
        # saves that cast for backward, which frees it with the op's other saved tensors
        casts = 2 * trainable
        if not ckpt:
            units = [(act + 2 * params, params) for act, params in units]
        notes.append("autocast: a 16-bit copy of the fp32 weights lives through the forward pass")
    saved = sum(u[0] for u in units) if train else 0
    # backward walks the units in reverse: it frees each unit's saved tensors and creates its
    # gradients (fp32, the trainable share of the unit's parameters); the peak is the largest
    # sum of what is still saved (units before) and the gradients made so far (units after)
    scale = trainable / max(sum(u[1] for u in units), 1)
    grads_peak, still, made = 0, saved, 0
    for act, params in reversed(units):
        made += int(params * scale) * 4
        grads_peak = max(grads_peak, still + made)
        still -= act
    grads_peak = max(grads_peak, trainable * 4)
    lat = max(res // 8, 1)
    latent = batch * int(arch.extra.get("latent_channels", 4)) * lat * lat * 4
    # the VAE encodes the batch under no_grad first: five (four) full-resolution maps of
    # block_out_channels[0] channels in the VAE's dtype (vae_encode module doc)
    vc = int((arch.extra.get("vae_channels") or [128])[0])
    vae_encode = ve.vae_encode_bytes(batch, res, vc, int(arch.extra.get("vae_layers_per_block", 2)),
                                     ve.vae_elem_bytes(inp, frozen_bytes))
    phases: Dict[str, Dict[str, int]] = {}
    if train:
        forward_end = dict(steady, activations=saved, latents=latent * 4)
        if ckpt and casts:
            forward_end["autocast_weight_casts"] = casts
        backward = dict(steady, activations_and_gradients=grads_peak, recompute=2 * unit)
        step = dict(steady, gradients=trainable * 4)
        if (inp.optimizer or "adamw") in ("adamw", "adamw-fused") and not lora:
            # foreach AdamW: per-step temporaries the size of one tensor list chunk; the largest
            # single temporary list is one fp32 copy of the gradients (torch._foreach_* ops)
            step["optimizer_temporaries"] = trainable * 4 * ve.adamw_step_lists(inp)
            notes.append(f"torch AdamW (foreach) keeps {ve.adamw_step_lists(inp)} fp32 temporary list(s) the size of "
                         "the trained parameters during step()")
        phases = {"vae_encode": dict(steady, vae_activations=vae_encode),
                  "forward_end": forward_end, "backward": backward, "optimizer_step": step}
        if ve.ddp_bucket_bytes(inp, trainable):  # DDP's buckets on more than one GPU (vae_encode doc)
            for p in phases.values():
                p["ddp_buckets"] = ve.ddp_bucket_bytes(inp, trainable)
        if ve.previous_step_grads(inp, trainable):  # zero_grad() after the forward (vae_encode doc)
            for name in ("vae_encode", "forward_end"):
                phases[name]["previous_gradients"] = ve.previous_step_grads(inp, trainable)
        if inp.cache_latents:  # latents encoded before the loop: no VAE in the step
            del phases["vae_encode"]
    else:
        phases = {"denoise": dict(terms, activations=unit * 2, latents=latent * 2)}
    overhead = {"cuda_context": int(C.CUDA_CONTEXT_BYTES), "cublas_workspace": int(C.CUBLAS_WORKSPACE_BYTES)}
    for p in phases.values():
        p.update(overhead)
    peak_phase = max(phases, key=lambda k: sum(phases[k].values()))
    peak = sum(phases[peak_phase].values())
    if inp.zero_stage or inp.fsdp:
        notes.append("sharding (ZeRO/FSDP) is not modelled for diffusion pipelines: estimated as data "
                     "parallel, every GPU holding the whole model")
    lo = int(peak * 0.9)
    hi = int(peak * (1.15 + C.UNMODELLED_HI))
    notes.append(f"diffusion {kind}: {'textual inversion' if ti else 'LoRA r=' + str(inp.lora_r) if lora else 'full'} training at "
                 f"{res}x{res} px (latents {lat}x{lat}), batch {batch}"
                 + (", gradient checkpointing" if ckpt else "") + f", attention {attention}")
    return Estimate(peak_bytes=peak, interval_bytes=(lo, hi), phase=peak_phase,
                    breakdown=dict(phases[peak_phase]), phases=phases, notes=notes,
                    params_total=den + text + int(arch.extra.get("vae_params", 0)),
                    params_trainable=trainable if train else 0, arch_name=arch.name,
                    arch_source=arch.source)
