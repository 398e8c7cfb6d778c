"""Terms of the cost model that depend on the optimizer: its state bytes per trainable
parameter, the states a paged optimizer keeps outside the caching allocator, and the step's
temporaries. (Split from :mod:`preflight.estimate.terms`, which re-exports them.)"""

from __future__ import annotations

from typing import Any

from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.shapes import lora_dims


def state_bytes(optimizer: str, state_dtype: float, arch: Any, full: bool) -> float:
    """Optimizer state bytes per trainable parameter."""
    if optimizer in ("adamw", "adamw-fused", "paged-adamw"):
        return 2 * state_dtype
    if optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return C.ADAM8BIT_BYTES_PER_PARAM
    if optimizer == "adamw-4bit":
        return C.ADAM4BIT_BYTES_PER_PARAM
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


def paged_state_bytes(optimizer: str, state_per_element: float, arch: Any, prm: Any,
                      full: bool, lora_r: int, targets: tuple[str, ...]) -> float:
    """Optimizer-state bytes a bitsandbytes paged optimizer keeps in CUDA managed memory,
    outside PyTorch's caching allocator (``C.PAGED_STATE_MIN_ELEMENTS``): the states of
    every trainable tensor of at least 1e5 elements. The rest stays on the device: the
    states of smaller tensors (norms, biases, small adapters) and, for the 8-bit ones, the
    fp32 absmax of each block (``torch.zeros(..., device=p.device)``), which is the part of
    ``state_per_element`` above the two uint8 states."""
    if not optimizer.startswith("paged"):
        return 0.0
    per = 2.0 if optimizer == "paged-adamw-8bit" else state_per_element
    floor = C.PAGED_STATE_MIN_ELEMENTS
    if full:
        kv = arch.num_kv_heads * arch.head_dim if arch.num_kv_heads and arch.head_dim else arch.hidden_size
        # the smallest block matrix is hidden x kv (k_proj / v_proj under grouped queries)
        matrices = prm.quantizable if arch.hidden_size * min(kv, arch.hidden_size) >= floor else 0
        big = matrices + sum(n for n in (prm.embeddings, prm.lm_head) if n >= floor)
        return per * big
    if not lora_r:
        return 0.0
    # LoRA: each adapter is A (r x in) and B (out x r); each is paged on its own size
    big = 0
    for name in targets:
        big += sum(lora_r * d for d in lora_dims(arch, name) if lora_r * d >= floor)
    return per * big * (arch.num_layers + arch.num_encoder_layers)


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
        # AdamW: sqrt(exp_avg_sq) (and, before torch 2.1, the denominator beside it:
        # zero_client_optim.foreach_adamw_intermediates); Adafactor: the variance estimates
        from preflight.estimate.zero_client_optim import foreach_adamw_intermediates

        return trainable * state_dtype * foreach_adamw_intermediates(inp)
    if inp.optimizer in ("adamw", "adafactor") and not inp.zero_stage:
        # for-loop: two temporaries the size of the parameter being updated (sqrt and the
        # bias-corrected denominator), the largest parameter sets the peak; a hand-written loop
        # states its own count (``optimizer_loop_temps``, est96)
        temps = 2 if inp.optimizer_loop_temps is None else inp.optimizer_loop_temps
        return temps * min(prm.largest, trainable) * state_dtype
    return 0.0
