"""LayerScale: what a block's per-channel scale vectors keep for their gradient (est89).

BEiT / SimMIM / CaiT-style ViTs and DINOv2 multiply each residual branch by a trained vector before
the residual add: ``x + drop_path(gamma_1 * attn(norm1(x)))`` and the same with ``gamma_2`` for the
MLP (microsoft/SimMIM d3e29bc ``models/vision_transformer.py`` ``Block.forward``, ``init_values``
``MODEL.VIT.INIT_VALUES`` 0.1 in ``config.py``; timm's ``LayerScale.forward``: ``x * self.gamma``;
transformers' ``Dinov2LayerScale.forward``: ``hidden_state * self.lambda1``). Autograd's mul keeps
its other operand for each input that needs a gradient: for the trained vector's gradient
(``grad * branch`` summed over tokens) it keeps the branch output, one ``hidden``-wide tensor per
branch and token, two branches per block. Without layer scale the branch output feeds the residual
add alone, whose backward keeps nothing, so nothing in :func:`activations.transformer_layer`
counts it.

Its element size:

- apex AMP O1 (``amp_impl`` "apex"): ``__mul__`` / ``__rmul__`` are on apex's promote list
  (``apex/amp/lists/tensor_overrides.py`` ``CASTS``); ``wrap.make_promote_wrapper`` sees an fp16
  branch and an fp32 parameter and calls the op on ``utils.casted_args(maybe_float, ...)``: a new
  fp32 copy of the fp16 branch output, which is what the mul keeps, 4 bytes per element;
- otherwise the branch output itself in the compute dtype (``torch.autocast``: the linear's fp16 /
  bf16 output; the mul's type promotion happens inside the kernel, no copy is made).

A frozen vector (a frozen backbone, LoRA) needs no gradient: nothing kept.
"""

from __future__ import annotations

from typing import Any, Optional

BRANCHES = 2   # attention and MLP branch of each block


def has_layer_scale(inp: Any, arch: Any) -> bool:
    """The job's fact (``layer_scale``) when known, else the architecture's (DINOv2's config)."""
    known: Optional[bool] = getattr(inp, "layer_scale", None)
    if known is not None:
        return bool(known)
    return bool((getattr(arch, "extra", None) or {}).get("layerscale"))


def saved_per_token(inp: Any, arch: Any, comp: float, trains: bool) -> float:
    """Bytes per token and block that the two layer-scale muls keep (module docstring)."""
    if not trains or not has_layer_scale(inp, arch):
        return 0.0
    apex = (str(getattr(inp, "amp_impl", "torch")) == "apex"
            and str(getattr(inp, "precision", "")) == "amp-fp16")
    elem = 4.0 if apex else float(comp)
    return BRANCHES * arch.hidden_size * elem
