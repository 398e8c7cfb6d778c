"""Activation memory of the vision backbones that are not a plain stack of transformer layers:
ResNet and ConvNeXt (saved feature maps block by block) and Swin (stages of windowed transformer
layers at their own tokens, width and heads, with the patch embedding and patch merging between
them). Bytes for one micro-batch on one GPU, as in :mod:`preflight.estimate.activations`, whose
:func:`~preflight.estimate.activations.transformer_layer` a Swin block is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from preflight.estimate.activations import Dtypes, LayerActs, transformer_layer


def cnn(arch: Any, d: Dtypes, *, batch: int, image: int) -> LayerActs:
    """ResNet (bottleneck/basic) and ConvNeXt: saved feature maps per block."""
    x = getattr(arch, "extra", {}) or {}
    widths = list(x.get("hidden_sizes") or [arch.hidden_size])
    depths = list(x.get("depths") or [max(arch.num_layers, 1)])
    ec = d.comp
    total = 0.0
    if arch.model_type == "convnext":
        side = image // int(x.get("patch_size", 4))
        total += batch * side * side * widths[0] * (4 + ec)            # stem conv out + LayerNorm
        for i, (c, depth) in enumerate(zip(widths, depths)):
            if i > 0:
                total += batch * side * side * widths[i - 1] * (4 + ec)  # LayerNorm + 2x2 conv in
                side //= 2
            # per channel: dwconv in, LayerNorm in, LayerNorm out (fc1 in), fc2 out (layer
            # scale in); per 4x expanded channel: fc1 out (GELU in) and GELU out (fc2 in)
            block = batch * side * side * c * (4 * ec + 2 * 4 * ec)
            total += depth * block
        last = widths[-1]
        stage_params = depths[-1] * (49 * last + 8 * last * last)
        return LayerActs(saved=total, inputs=0.0,
                         backward=_cnn_backward(batch * side * side * last * ec, stage_params, d))
    emb = int(x.get("embedding_size", 64))
    side = image // 2
    total += batch * arch.num_channels * image * image * ec          # conv1 input (cast)
    total += batch * side * side * emb * (ec + ec)                   # BN in, ReLU out
    side //= 2
    total += batch * side * side * emb * 8                           # maxpool int64 indices
    bottleneck = x.get("layer_type", "bottleneck") == "bottleneck"
    for i, (c, depth) in enumerate(zip(widths, depths)):
        before = side
        if i > 0:
            side //= 2
        mid = c // 4 if bottleneck else c
        for j in range(depth):
            hw = batch * side * side
            if bottleneck:
                # conv1 out (BN in), ReLU out, conv2 out (BN in), ReLU out, conv3 out (BN in),
                # block output ReLU; the first block of a stage runs conv1 before the stride
                first = j == 0 and i > 0
                block = hw * (2 * mid * ec + 2 * c * ec)
                block += (batch * before * before if first else hw) * 2 * mid * ec
                if j == 0:
                    block += hw * c * ec                              # projection shortcut BN in
            else:
                block = hw * (4 * c * ec)
            total += block
    last = widths[-1]
    mid = last // 4 if bottleneck else last
    per_block = (2 * last * mid + 9 * mid * mid) if bottleneck else 18 * last * last
    stage_params = depths[-1] * per_block + widths[-2 if len(widths) > 1 else -1] * last
    return LayerActs(saved=total, inputs=0.0,
                     backward=_cnn_backward(batch * side * side * last * ec, stage_params, d))


def _cnn_backward(last_map: float, last_stage_params: int, d: Dtypes) -> float:
    """A CNN's backward peaks early: the last stage's weight gradients and two feature-map
    gradients at its resolution, while the saved maps are freed stage by stage."""
    return 2 * last_map + last_stage_params * d.weights


@dataclass(frozen=True)
class SwinActs:
    """Swin's blocks, one :class:`LayerActs` each, and what runs outside them: the patch
    embedding (its conv input and LayerNorm) and the patch merging between stages
    (``fixed``, never checkpointed); the token count and width of the first and last stage
    (the first block's norm input, the final LayerNorm)."""

    layers: list[LayerActs]
    fixed: float
    first_tokens: int
    first_width: int
    last_tokens: int
    last_width: int


def swin_geometry(arch: Any, image: int) -> list[tuple[int, int, int]]:
    """(map side, window side, windows) per image for each Swin stage: the patch map
    (image / patch) halves at each merge (odd sides padded, as ``SwinPatchMerging.maybe_pad``
    does), and each stage attends inside windows of ``window`` x ``window`` tokens (the whole
    map when it is smaller; the map padded to whole windows)."""
    x = getattr(arch, "extra", {}) or {}
    window = int(x.get("window", 7))
    side = max(image // max(arch.patch_size, 1), 1)
    out = []
    for i, _ in enumerate(x.get("stages") or []):
        if i > 0:
            side = (side + 1) // 2
        w = min(window, side)
        out.append((side, w, ((side + w - 1) // w) ** 2))
    return out


def swin(arch: Any, d: Dtypes, *, batch: int, image: int, train_weights: bool,
         **common: Any) -> SwinActs:
    """Swin (transformers' ``SwinModel``, the reference ``swin_transformer.py``): stage ``i``
    runs ``depth`` blocks on (image / patch / 2**i)**2 tokens per image at width C * 2**i with
    its own heads; each block attends inside windows of ``window``**2 tokens (the whole map
    when it is smaller), so the materialised scores are windows x heads x window**2 x
    window**2. A block saves what a ViT layer of that width saves (LayerNorms, the q/k/v
    linears' input, q, k, v, the softmax and its cast copy, the projection's input, the MLP),
    with the windows' tokens as its keys; the window partition, shift and reverse are copies
    that no backward reads. Between stages ``PatchMerging`` concatenates 2 x 2 neighbours
    (a new 4C-wide tensor at a quarter of the tokens) that its LayerNorm saves, and its
    reduction linear saves the normed value (when it trains)."""
    x = getattr(arch, "extra", {}) or {}
    stages = list(x.get("stages") or [])
    geometry = swin_geometry(arch, image)
    er, ec = d.res, d.comp
    norm_in = max(er, 4 if d.autocast else er)      # LayerNorm's saved input
    side = geometry[0][0] if geometry else 0
    layers: list[LayerActs] = []
    # patch embedding: the conv keeps the (cast) image when its weight trains; the
    # embedding LayerNorm keeps the conv output
    fixed = float(batch * side * side * stages[0]["hidden"] * norm_in) if stages else 0.0
    if train_weights:
        fixed += batch * arch.num_channels * image * image * ec
    first = last = (0, 0)
    for i, (s, (side, w, windows)) in enumerate(zip(stages, geometry)):
        width, heads = int(s["hidden"]), int(s["heads"])
        if i > 0:
            # patch merging of the previous stage's map into this stage's
            prev = int(stages[i - 1]["hidden"])
            merged = batch * side * side * 4 * prev
            fixed += merged * (norm_in + (ec if train_weights else 0))
        tokens = batch * windows * w * w
        stage = replace(arch, hidden_size=width, num_heads=heads, num_kv_heads=heads,
                        head_dim=width // max(heads, 1), intermediate_size=int(s["mlp"]))
        layer = transformer_layer(stage, d, tokens=tokens, seq=w * w, batch=batch * windows,
                                  train_weights=train_weights, **common)
        layers += [layer] * int(s["depth"])
        last = (batch * side * side, width)
        if i == 0:
            first = last
    return SwinActs(layers=layers, fixed=fixed, first_tokens=first[0], first_width=first[1],
                    last_tokens=last[0], last_width=last[1])
