"""CLIP-style contrastive training: the vision tower beside the text tower, and the
batch x batch similarity logits in place of an LM head.

A CLIP model (transformers' ``CLIPModel``, open_clip's ``CLIP``) runs two transformers per
step: the text tower over ``seq_len`` tokens and the vision tower over ``(image / patch)**2``
patches plus a class token. It has no vocabulary-sized head: the text tower's final norm is
pooled at the end-of-text token and projected, the vision tower's class token is normed and
projected, and the loss is a cross-entropy over the cosine-similarity matrix of the batch
(open_clip ``loss.ClipLoss``: ``logits_per_image = logit_scale * image_features @
all_text_features.T`` and its text twin, ``F.cross_entropy`` on each; transformers
``clip_loss`` likewise). Both towers take gradient checkpointing together (open_clip
``CLIP.set_grad_checkpointing`` sets ``visual.transformer.grad_checkpointing`` and the text
``transformer.grad_checkpointing``; ``Transformer.forward`` runs ``checkpoint(r, x, ...)`` per
residual block).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Tuple


def is_clip(arch: Any) -> bool:
    """A two-tower contrastive model read from a ``clip`` config."""
    return (getattr(arch, "family", "") == "multimodal"
            and (getattr(arch, "extra", None) or {}).get("layout") == "clip")


def vision_tower(arch: Any) -> Any:
    """The CLIP vision tower as an encoder-shaped Architecture (its width, depth, heads and
    MLP width; LayerNorm, no rotary, no LM head), so the per-layer activation formulas of
    :func:`preflight.estimate.activations.transformer_layer` apply to it unchanged."""
    info: Dict[str, Any] = dict((arch.extra or {}).get("vision") or {})
    hidden = int(info.get("hidden_size") or arch.hidden_size)
    heads = int(info.get("num_heads") or max(hidden // 64, 1))
    extra = dict(arch.extra or {})
    if info.get("mlp_act"):
        extra["mlp_act"] = str(info["mlp_act"])   # the vision config's own activation (est63)
    return replace(arch, extra=extra, hidden_size=hidden, num_layers=int(info.get("num_layers") or 0),
                   num_heads=heads, num_kv_heads=heads, head_dim=hidden // heads,
                   intermediate_size=int(info.get("intermediate_size") or 4 * hidden),
                   vocab_size=0, image_size=int(info.get("image_size") or arch.image_size),
                   patch_size=int(info.get("patch_size") or arch.patch_size))


def vision_tokens(vision: Any, image: int) -> int:
    """Patches plus the class token: ``(image // patch) ** 2 + 1`` (49 + 1 for ViT-B/32 at
    224 px)."""
    return (image // max(int(vision.patch_size), 1)) ** 2 + 1


def vision_fixed(vision: Any, *, batch: int, image: int, comp: int, autocast: bool,
                 conv_trains: bool) -> float:
    """What the vision tower keeps outside its blocks, per step:

    * the image batch itself (fp32, ``channels x image x image`` per sample), which the
      training loop holds on the GPU through forward and backward (open_clip
      ``train_one_epoch``: ``images = images.to(device)`` before the forward);
    * the patch convolution's input when its weight trains (conv2d saves its input; under
      autocast the compute-dtype cast of the images, without it the images themselves);
    * ``ln_pre``'s input over every token (LayerNorm saves its input; fp32 under autocast).
    """
    channels = int(getattr(vision, "num_channels", 3) or 3)
    pixels = float(batch * channels * image * image)
    tokens = batch * vision_tokens(vision, image)
    held = pixels * 4
    conv_in = pixels * comp if (conv_trains and autocast) else 0.0
    ln_pre = float(tokens * vision.hidden_size * (4 if autocast else comp))
    return held + conv_in + ln_pre


def contrastive_logits(*, batch: int, world: int, comp: int) -> Tuple[float, float]:
    """(forward, backward-start) bytes of the two similarity matrices and their loss.

    Each GPU scores its ``batch`` images against the gathered ``batch x world`` texts and the
    reverse (open_clip ``local_loss``; at world size 1 the batch against itself): two
    ``batch x batch*world`` matrices. Per element: the matmul's compute-dtype output, which
    the ``logit_scale`` multiply keeps (the scale trains), and ``F.cross_entropy``'s fp32
    log-softmax (autocast runs it in fp32) are saved; the last matrix's fp32 cast is transient
    in forward; backward starts with an fp32 gradient and its compute-dtype cast."""
    n = float(batch) * float(batch * max(world, 1))
    saved = 2 * n * (comp + 4)
    return saved + n * 4, saved + n * (4 + comp)
