"""Diffusion terms beyond the base cost model (est35): quantized frozen base weights and the
components a training script frees before its loop.

* Quantized base (``EstimateInput.quant``): bitsandbytes ``Linear4bit`` (QLoRA, NF4/FP4) packs two
  4-bit codes per byte and keeps one fp32 absmax per 64-element block (``blocksize=64``,
  bitsandbytes ``functional.quantize_4bit``); with double quantization the absmax are themselves
  8-bit codes with one fp32 absmax per 256 of them (``compress_statistics``). 8-bit (optimum-quanto
  ``qint8`` weights, bitsandbytes ``Linear8bitLt``) keeps one byte per weight and one scale per
  output row (quanto: per-axis scale on axis 0; bitsandbytes: the fp32 ``SCB``). Neither keeps a
  16-bit copy: each layer's weight is dequantized to the compute dtype when the layer runs
  (``bnb.matmul_4bit`` -> ``dequantize_4bit``; quanto's ``QBytesTensor`` linear), freed after the
  matmul and dequantized again in backward, so one buffer the size of the largest layer is live
  on top of the steady state.
* ``cache_text_embeddings``: diffusers' DreamBooth/LoRA scripts encode the prompts once and then
  ``del text_encoder_one, text_encoder_two`` + ``free_memory()`` (train_dreambooth_lora_flux.py,
  train_dreambooth_lora_sd3.py when the text encoders are not trained); sd-scripts'
  ``--cache_text_encoder_outputs`` moves them to the CPU. The text encoders hold no GPU memory in
  the step.
* ``cache_latents``: ``--cache_latents`` encodes every image once before the loop and, without a
  validation prompt, ``del vae`` + ``free_memory()`` (diffusers); fast-DiT's pre-extracted
  features never load the VAE. No VAE weights and no VAE encode in the step.

Only ``nn.Linear`` layers are quantized; transformer denoisers (Flux, SD3, DiT) are all but
entirely linear layers, a UNet's convolutions are not (charged at the quantized rate as well:
an under-estimate noted on the estimate).
"""
from __future__ import annotations

from typing import Any, List, Mapping, Tuple

__all__ = ["TI_NOTE", "amp_residual_stream", "check_flags", "largest_linear", "quantized_bytes"]

#: bitsandbytes 4-bit block size (``Linear4bit``/``Params4bit`` default ``blocksize=64``)
NF4_BLOCK = 64
#: second-level block of double quantization (``quantize_4bit(compress_statistics=True)``)
NF4_DQ_BLOCK = 256


def quantized_bytes(n: int, quant: str, rows: int, double_quant: bool = False) -> int:
    """Bytes of ``n`` weights quantized as ``quant`` ("4bit" or "8bit") in ``rows`` output rows."""
    if quant == "4bit":
        blocks = -(-n // NF4_BLOCK)
        if double_quant:
            return n // 2 + blocks + 4 * -(-blocks // NF4_DQ_BLOCK)
        return n // 2 + 4 * blocks
    return n + 4 * rows


def _hidden(den: Mapping[str, Any]) -> int:
    """Transformer width (heads x head dim); a UNet's widest block (its heads are per block)."""
    chans = den.get("block_out_channels")
    if isinstance(chans, (list, tuple)) and chans:
        return int(max(chans))
    heads, dim = den.get("num_attention_heads", 24), den.get("attention_head_dim", 64)
    if not isinstance(heads, int) or not isinstance(dim, int):
        return 1024
    return heads * dim


def largest_linear(arch: Any) -> int:
    """Parameters of the denoiser's largest ``nn.Linear`` weight: the adaLN modulation
    ``Linear(d, 6d)`` of Flux/SD3/DiT blocks (AdaLayerNormZero; DiT's ``adaLN_modulation``), or a
    UNet's GEGLU projection ``Linear(c, 2*4c)`` at its deepest channel count."""
    den, kind = arch.extra["denoiser"], arch.extra["diffusion_kind"]
    d = _hidden(den)
    return d * 8 * d if kind == "unet" else 6 * d * d


def rows_estimate(n: int, arch: Any) -> int:
    """Output rows of ``n`` linear weights (for per-row scales): weights / hidden width."""
    den = arch.extra["denoiser"]
    return max(n // max(_hidden(den), 1), 1)


def check_flags(inp: Any) -> None:
    """The est35 input facts must be booleans (InputError otherwise, never a traceback)."""
    from preflight.estimate.inputs import QUANTS, InputError

    for name in ("cache_text_embeddings", "cache_latents", "textual_inversion"):
        if not isinstance(getattr(inp, name, False), bool):
            raise InputError(f"{name} must be true or false, got {getattr(inp, name)!r}")
    if inp.quant is not None and inp.quant not in QUANTS:
        raise InputError(f"unknown quantization {inp.quant!r} (expected {', '.join(QUANTS)})")


def quant_notes(inp: Any, kind: str) -> List[str]:
    notes = [f"base weights {inp.quant} ({'NF4/FP4 packed + absmax' if inp.quant == '4bit' else 'int8 + row scales'}); "
             "one 16-bit dequantized copy of the largest layer live while it runs"]
    if kind == "unet":
        notes.append("UNet convolutions are not quantized by bitsandbytes/quanto but are charged as if they were")
    return notes


def amp_residual_stream(units: List[Tuple[int, int]], kind: str, precision: str,
                        ckpt: bool) -> List[Tuple[int, int]]:
    """DiT under autocast keeps its residual stream in fp32: the original DiT ``models.py`` (and
    fast-DiT's copy) computes ``x = self.x_embedder(x) + self.pos_embed`` with the fp32
    ``pos_embed`` parameter, so the block input every ``torch.utils.checkpoint`` saves is fp32,
    and each ``x = x + gate * out`` keeps it fp32. The checkpointed block units (all but the
    final layer's) hold 4 bytes per element, not 2."""
    if kind != "dit" or not ckpt or not precision.startswith("amp"):
        return units
    return [(2 * act, params) for act, params in units[:-1]] + units[-1:]


#: CLIPTextConfig's default vocabulary (SD 1.x/2.x tokenizers: 49408 tokens)
CLIP_VOCAB = 49408

TI_NOTE = ("textual inversion: the whole token-embedding table of the text encoder trains (fp32 weights, "
           "gradients and AdamW states; the original rows are restored after each step), the text encoder "
           "stays fp32, the UNet is frozen but saves its activations for the gradient to the prompt embeddings")


def ti_trainable(arch: Any) -> int:
    """Textual inversion (diffusers ``textual_inversion.py``): the optimizer gets
    ``text_encoder.get_input_embeddings().parameters()``, the whole ``vocab x width`` table, and
    only the placeholder rows are kept (the others are copied back after each step). The UNet and
    VAE are cast to the weight dtype, the text encoder is not; the gradient reaches the
    embeddings through the UNet's cross-attention, so the UNet saves what a frozen-base LoRA
    saves."""
    encoders = arch.extra.get("text_encoders") or []
    width = max((int(e.get("width") or 0) for e in encoders), default=0) or 768
    return (CLIP_VOCAB + 1) * width  # + the placeholder token added to the tokenizer
