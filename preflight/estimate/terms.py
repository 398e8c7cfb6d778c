"""Terms of the cost model that depend on a kernel or library choice: the attention path a
GPU runs, the loss implementation's logits, and the optimizer's state and step temporaries.
(Split from :mod:`preflight.estimate.model`, which uses them.)"""

from __future__ import annotations

from typing import Any

from preflight.estimate import activations as A
from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput


def attention_kernel(inp: EstimateInput) -> str:
    """The attention path that actually runs: SDPA's flash and memory-efficient kernels
    need bf16 support in hardware for bf16 inputs (compute capability 8.0+); on a T4 or
    V100 a bf16 job falls back to the math path, which materialises the scores like eager
    attention (flash-attn 2 does not run there at all)."""
    bf16 = inp.precision in ("bf16", "amp-bf16")
    if inp.attention in ("sdpa", "flash") and bf16 and inp.gpu_bf16 is False:
        return "eager"
    return inp.attention


def state_bytes(optimizer: str, state_dtype: float, arch: Any, full: bool) -> float:
    """Optimizer state bytes per trainable parameter."""
    if optimizer in ("adamw", "adamw-fused", "paged-adamw"):
        return 2 * state_dtype
    if optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return C.ADAM8BIT_BYTES_PER_PARAM
    if optimizer == "lion-8bit":
        return C.ADAM8BIT_BYTES_PER_PARAM / 2
    if optimizer in ("lion", "sgd-momentum"):
        return state_dtype
    if optimizer == "sgd":
        return 0.0
    if optimizer == "adafactor":
        # factored second moment: a row and a column vector per matrix, no first moment
        # (torch.optim.Adafactor; transformers' Adafactor with beta1=None): per parameter,
        # (rows + cols) / (rows x cols) of a typical matrix of the model
        h, i = arch.hidden_size, max(arch.intermediate_size, arch.hidden_size, 1)
        per_param = (h + i) / (h * i) if full else 0.05   # LoRA: r x in matrices, r small
        return state_dtype * per_param
    return 2 * state_dtype


def optimizer_temporaries(inp: EstimateInput, trainable: int, state_dtype: float,
                           prm: Any) -> float:
    """Transient buffers of the optimizer step: torch's foreach AdamW materialises
    ``sqrt(exp_avg_sq)`` for the whole parameter list; fused and for-loop do not."""
    foreach = inp.foreach
    version = inp.torch_before
    if version is not None and version < (2, 0) and "foreach" not in inp.sources:
        # torch.optim picks the foreach implementation by default on CUDA from 2.0; before,
        # the for-loop one (foreach=None meant False)
        foreach = False
    if inp.optimizer in ("adamw", "adafactor") and foreach and not inp.zero_stage:
        # AdamW: sqrt(exp_avg_sq); Adafactor: the variance estimates, for every parameter
        return trainable * state_dtype
    if inp.optimizer in ("adamw", "adafactor") and not inp.zero_stage:
        # for-loop: two temporaries the size of the parameter being updated (sqrt and the
        # bias-corrected denominator), the largest parameter sets the peak
        return 2 * min(prm.largest, trainable) * state_dtype
    return 0.0


def chunked_or_fused_logits(inp: EstimateInput, arch: Any, d: A.Dtypes, tv: float,
                             tokens: float) -> dict[str, float]:
    """Logit and loss memory of a chunked or fused cross-entropy (``tv`` = tokens x vocab).

    chunked (torchtune ``CEWithChunkedOutputLoss``, litgpt ``chunked_cross_entropy``): the
    head's output exists once in the compute dtype, each chunk's log-probabilities (fp32)
    are saved for backward; no full-size fp32 copy or gradient exists at once: the
    backward of each chunk runs on its own. Forward holds ``tv x (comp + 4)``, backward
    starts with the saved ``tv x 4``.

    fused (Liger ``LigerFusedLinearCrossEntropy``, Unsloth, Cut Cross-Entropy, torchtune
    ``LinearCrossEntropyLoss``): the head and the loss run chunk by chunk and the
    gradient of the head's input is computed in the forward; the full logits never
    exist. What remains is that input gradient, ``tokens x hidden`` in the compute dtype.
    """
    if inp.loss == "chunked":
        return {"logits_held": tv * d.comp, "logits_fwd": tv * (d.comp + 4), "logits_bwd": tv * 4}
    grad_in = tokens * arch.hidden_size * d.comp
    return {"logits_held": 0.0, "logits_fwd": grad_in, "logits_bwd": grad_in}
