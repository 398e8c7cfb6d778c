"""autocast's weight cast cache in a forward pass without gradients (est73).

``torch.autocast`` casts the inputs of every op on its lower-precision list (``linear``,
``matmul``, ``einsum``, ``bmm``, the convolutions, ...; ``aten/src/ATen/autocast_mode.h``,
``AT_FORALL_LOWER_PRECISION_FP``) and keeps the cast of a weight in a cache
(``aten/src/ATen/autocast_mode.cpp``, ``cached_cast``) when::

    to_type == the autocast dtype && arg.scalar_type() == kFloat && arg.requires_grad()
    && arg.is_leaf() && !arg.is_view() && cache_enabled

``requires_grad()`` is the tensor's own attribute: ``torch.no_grad()`` and
``torch.inference_mode()`` change whether autograd records, not the attribute, so the fp32
parameters of a model that was never frozen are cached in a no-grad pass too. The cache is
cleared only when the outermost autocast region exits (``torch/amp/autocast_mode.py``,
``__exit__``: ``if torch.autocast_decrement_nesting() == 0: torch.clear_autocast_cache()``):
a forward pass (and its loss, or a whole ``generate`` call) inside one region ends holding a
compute-dtype copy of every matmul weight it used, beside the fp32 weights.

The training step charges the same cache in ``train_phase``: the forward ends holding every cast
also when the blocks are checkpointed (the cache, not autograd, holds them; ``torch.utils.checkpoint``
does not clear it), and the backward, outside the region, holds the head's cast and the recomputed
layer's (checkpoint re-enters autocast around the recomputation; leaving it clears the cache). This
module charges it where no backward runs: ``mode`` infer and generate with fp32 weights under
``amp-*``. Weights loaded in 16 bits (``weights_bits`` 16) are not cast; 4/8-bit bases are
dequantized by their own kernels, not cast by autocast; the embedding lookup is not on the
list (not cast); the norms run in fp32 (no lower-precision copy).

Measured (held-out-33, damek/cs336-assignment2-systems ``memory_viz_report.md``): the 2.7B model's
no-grad forward at batch 4 x 128 is 12.90 GiB in fp32 and 19.18 GiB under bf16 autocast; the
difference (6.28 GiB) is the bf16 copies of its 3.38B matmul weights (6.30 GiB).

A weight handed to the op as a view is not cached (``!arg.is_view()``, est75): a linear layer
written as ``x @ weight.T`` or ``torch.matmul(x, weight.t())`` casts the transpose for the call
and frees the cast after it (``calibration/autocast_view_cache.py``, torch 2.13 on the CPU: a
no-grad pass over 8 fp32 matrices under bf16 autocast ends holding 1.0 of one bf16 copy of them
with ``F.linear(x, w)`` or ``x @ w``, 0.0 with ``x @ w.T`` / ``matmul(x, w.t())``). Input
``weight_views`` (plan ``model.weight_views``): no cache in a pass without backward. A training
forward saves each cast for the backward either way (the same bytes live at the forward's end,
measured by the same script), so the training step is unchanged. Measured (held-out-34,
TobinZuo/assignment2-systems, the student's ``run_linear`` ``in_features @ weights.T``): the xl
no-grad forward at batch 4 x 128 is 13,133 MiB in fp32 and 13,138 MiB under bf16 autocast.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate import contrastive as CL


def lm_head(arch: Any) -> bool:
    """Whether the model's head is the LM head over the vocabulary (not a classification or QA
    head: ``extra['task_head']`` from ``*ForSequenceClassification`` and the like)."""
    return str((getattr(arch, "extra", None) or {}).get("task_head", "lm")) == "lm"


def cached_weights(inp: Any, arch: Any, prm: Any) -> float:
    """Parameters whose compute-dtype casts autocast keeps: the block matrices (every weight
    of a CNN: its convolutions) and the LM head (an LM head tied to the embeddings is cast
    as the head's matmul weight; the embedding lookup is not cast)."""
    head = prm.lm_head or (arch.vocab_size * arch.hidden_size
                           if (arch.vocab_size and arch.family not in ("vision", "cnn")
                               and not CL.is_clip(arch) and lm_head(arch)) else 0)
    matmul = prm.total if arch.family == "cnn" else prm.quantizable
    return float(head + matmul)


def nograd_cache_bytes(inp: Any, arch: Any, prm: Any, comp_bytes: float, base_bytes: float) -> float:
    """Bytes of autocast's weight cache at the end of a forward pass without backward: the
    cached parameters at the compute dtype when autocast runs over fp32 weights and the model
    passes the parameters themselves to its matmuls (not ``weight_views``), else 0."""
    from preflight.estimate.terms import autocast_on

    if inp.quant or not autocast_on(inp) or base_bytes < 4.0 or comp_bytes >= base_bytes:
        return 0.0
    if inp.weight_views:   # x @ weight.T: the casts are views' casts, made per call and freed
        return 0.0
    return cached_weights(inp, arch, prm) * comp_bytes
