"""Attention and MLP activations written in Python ops instead of torch's kernels (est73).

Input ``python_ops`` (a tuple of names the job's model writes by hand; the Stanford CS336 course model
``cs336_basics`` writes both):

- ``"softmax"``: ``x - torch.max(x, -1, keepdim=True)[0]``, ``torch.exp``, ``/ torch.sum(.., keepdim=True)``
  for the attention probabilities. Autograd keeps ``exp``'s output (``ExpBackward0`` saves its result) and
  the quotient (the probability matmul saves its input; under autocast its own cast copy), where torch's
  ``softmax`` keeps one output; per query row ``max``'s int64 indices and the fp32 row sum (the division's
  divisor). Without autograd the masked scores (still bound to the caller's name), the shifted scores (the
  softmax frame's local), ``exp``'s output and the quotient are alive together when the quotient is made.
  ``exp`` and ``sum`` are on CUDA autocast's fp32 list (``aten/src/ATen/autocast_mode.h``,
  ``AT_FORALL_FP32``): under autocast they and the quotient are fp32; the scores stay in the compute dtype.
- ``"silu"``: ``x * torch.sigmoid(x)`` in a gated MLP: ``SigmoidBackward0`` keeps the sigmoid's output, one
  MLP-width tensor more than ``F.silu`` (which keeps its input, the gate projection's output, already kept
  by the product).

Measured on the CPU in fp32 (``calibration/python_ops_saved.py`` -> ``calibration/data/python_ops_saved.json``,
torch 2.13.0+cpu): 8 bytes per score element against 4 for ``torch.softmax``; 20 bytes per query row against 8
(the causal mask's share); 5 MLP-width tensors against 4; at the peak of the attention's backward 2 score tensors
more than with ``torch.softmax`` (5.75 against 3.75, q / k / v gradients included in both). The gradients through
``exp`` and the division are in their dtype: fp32 under CUDA autocast.
"""

from __future__ import annotations

#: distinct score-sized tensors autograd keeps for the Python softmax (exp's output and the quotient)
SOFTMAX_SAVED_SCORES = 2
#: bytes per query row it keeps beyond torch's softmax: max's int64 index and the fp32 row sum
SOFTMAX_SAVED_ROW_BYTES = 8 + 4
#: score-sized tensors alive together when the quotient is made without autograd: the masked and the
#: shifted scores (compute dtype), exp's output and the quotient (fp32 under CUDA autocast)
SOFTMAX_LIVE_SCORES = (2, 2)
#: fp32 score tensors more than torch's softmax alive at once in the attention's backward: the division's
#: gradient for its numerator and the temporary of its divisor's, then exp's (measured: 5.75 against 3.75)
SOFTMAX_BWD_EXTRA = 2
#: MLP-width tensors the Python SiLU keeps beyond ``F.silu``: the sigmoid's output
SILU_EXTRA_WIDTHS = 1


def exp_bytes(comp_bytes: float, autocast: bool, device: str) -> float:
    """Bytes per element of ``exp``'s output and the quotient: fp32 under CUDA autocast (``exp``
    and ``sum`` on its fp32 list), else the scores' dtype."""
    return 4.0 if (autocast and device != "cpu") else float(comp_bytes)


def softmax_saved_per_query(heads: int, keys: int, comp_bytes: float, autocast: bool,
                            device: str) -> float:
    """Bytes per query token autograd keeps for the Python softmax and the probability matmul:
    exp's output, the probabilities as the matmul saves them (under autocast its compute-dtype
    cast, else the quotient), and per head row the index of the max and the row sum."""
    return heads * (keys * (exp_bytes(comp_bytes, autocast, device) + comp_bytes)
                    + SOFTMAX_SAVED_ROW_BYTES)


def softmax_live_nograd(comp_bytes: float, autocast: bool, device: str) -> float:
    """Bytes per score element alive at the Python softmax's peak without autograd."""
    scores, fp32ish = SOFTMAX_LIVE_SCORES
    return scores * comp_bytes + fp32ish * exp_bytes(comp_bytes, autocast, device)


def kv_heads(arch: object, heads: int) -> int:
    """Key/value heads of the layer whose query heads are ``heads`` (the model's own count when
    the stage is the model's, else ``heads``)."""
    kv = int(getattr(arch, "num_kv_heads", 0) or 0)
    return kv if kv and heads == int(getattr(arch, "num_heads", 0) or 0) else heads
