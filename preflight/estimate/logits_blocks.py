"""Reserved-but-unallocated memory of a loss computed on 16-bit logits under autocast.

A causal LM whose loss runs in the logits' own dtype (Qwen-1's remote ``QWenLMHeadModel``,
the heads of ``terms.LOSS_IN_LOGITS_DTYPE`` before transformers 4.49, a script's own
cross-entropy on the returned logits: ``terms._loss_in_logits_dtype``) and whose training step
runs under autocast hands ``CrossEntropyLoss`` 16-bit logits. Autocast runs ``cross_entropy``
in fp32, so the caching allocator serves, for ``E`` = tokens x vocabulary elements
(torch's ``cross_entropy`` = ``nll_loss(log_softmax(x))``; each request of this size is a
segment of its own):

forward
  A  the 16-bit logits (``lm_head`` under autocast), 2E bytes, kept by the model's output;
  B  autocast's fp32 copy of them, 4E, freed when ``cross_entropy`` returns (its backward,
     a dtype cast, saves nothing);
  C  ``log_softmax``'s fp32 output, 4E, saved for its backward.
  (At one sequence per micro-batch the shift ``logits[..., :-1, :].contiguous()`` is a view.)
  The training loop keeps only the loss: A is freed before backward.
backward
  D  ``nll_loss_backward``'s ``zeros_like`` gradient, 4E: takes B's free block;
  F  ``log_softmax``'s input gradient, 4E: the only free block left is A's 2E, too small,
     so the allocator makes a new segment.

At that moment C, D and F (12E, the estimate's ``logits_loss``) are allocated and A's block
(2E) is reserved and free: nvidia-smi and ``memory_reserved`` see 14E. The 16-bit gradient F is
cast to afterwards (2E) takes A's block back, so nothing larger is reserved later in the step;
from the second step on the same four segments serve the same requests.

This replaces, for that phase, the generic share of the step's transient tensors
(``constants.STEP_CACHE_RATIO``, a median over other layouts) by the remainder the block
sequence proves. The forward phase's logits leave no such remainder (every request is a
fresh segment or an exact reuse).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.estimate import constants as C


def applies(inp: Any, arch: Any) -> bool:
    """The layout above: training under autocast, the standard eager loss on 16-bit logits
    computed in their own dtype, one sequence per micro-batch."""
    from preflight.estimate.terms import _loss_in_logits_dtype, loss_compiled

    return (inp.mode == "train" and str(inp.precision).startswith("amp")
            and inp.loss == "standard" and not loss_compiled(inp)
            and int(inp.micro_batch or 1) == 1 and not inp.quant
            and _loss_in_logits_dtype(inp, arch))


def logits_remainder(inp: Any, arch: Any, phase: str, terms: dict[str, float]) -> Optional[float]:
    """Bytes the 16-bit logits' freed block leaves reserved at the start of backward (2E, see
    the module's docstring); 0.0 in the forward phase; None when the layout does not apply or
    the phase's length-dependent peak is not the loss (a recomputed layer instead)."""
    logits = float(terms.get("logits_loss", 0.0))
    if not logits or terms.get("activation_recompute") or not applies(inp, arch):
        return None
    if phase == "forward":
        return 0.0
    if phase != "backward":
        return None
    elements = logits / C.LOGITS_BACKWARD_FP32     # C + D + F: 12 bytes per element
    return 2.0 * elements
