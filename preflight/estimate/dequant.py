"""What a bitsandbytes 4-bit base costs beyond its packed storage: the dequantized weight that
every 4-bit matmul makes, forward and backward, and which linears are 4-bit.

bitsandbytes' ``MatMul4Bit`` (read in 0.41.1, ``autograd/_functions.py``; the same lines in
later releases) runs ``F.linear(A, F.dequantize_4bit(B, state).to(A.dtype).t(), bias)`` in
forward and ``torch.matmul(grad_output, F.dequantize_4bit(B, state).to(grad_output.dtype).t())``
in backward. ``dequantize_4bit`` allocates ``torch.empty(shape, dtype=state_dtype)``: the whole
weight in the dtype the quant state recorded when the weight was quantized. When that dtype is
not the compute dtype, ``.to`` makes a second copy while the first is alive.

- transformers' bitsandbytes integration quantizes the weights as loaded (``torch_dtype``, the
  compute dtype the estimator assumes): one copy; it leaves the LM head in 16 bits
  (``get_keys_to_not_convert``), so the largest dequantized matrix is a block's.
- lit-gpt's ``--quantize bnb.nf4[-dq]`` uses Lightning's ``BitsandbytesPrecision``: inside
  ``fabric.init_module()`` every ``torch.nn.Linear`` becomes a ``Linear4bit`` (lightning
  71aed751, ``_ClassReplacementContextManager({"torch.nn.Linear": ...})``), the LM head
  included, and ``_Linear4bit._quantize_weight`` quantizes ``weight.to(dtype=torch.half)``:
  an fp16 state under a bf16 model, so a bf16 job holds the head twice (fp16 + bf16, 4 bytes
  per element) in the head's forward and again in its backward.

Measured on CPU with lit-gpt 8641822's own model and MatMul4Bit's code (the dequantize kernel
replaced by the allocation it makes): ``calibration/bnb4bit_litgpt.py`` ->
``calibration/data/bnb4bit_litgpt_peak.json``.
"""

from __future__ import annotations

from typing import Any

#: lit-gpt (Lightning's BitsandbytesPrecision) quantizes from float16 whatever the model's
#: dtype (``weight.contiguous().to(device="cuda", dtype=torch.half)``) (format: lightning
#: ``fabric/plugins/precision/bitsandbytes.py`` at 71aed751).
LIGHTNING_STATE_BYTES = 2


#: transformers models whose attention has one fused query/key/value Linear
_FUSED_QKV = ("gpt_neox", "falcon", "bloom", "phi3")


def stored_weights(inp: Any, prm: Any, base_bytes: float, other_bytes: float) -> float:
    """Bytes of the weights as stored: quantizable block matrices at ``base_bytes``, the
    rest (embeddings, norms, the LM head unless it is 4-bit too) at ``other_bytes``."""
    if not inp.quant:
        return prm.total * base_bytes
    q = prm.quantizable + (prm.lm_head if head_quantized(inp) else 0)
    return q * base_bytes + (prm.total - q) * other_bytes


def head_quantized(inp: Any) -> bool:
    """The LM head is stored in 4 bits: lit-gpt's Fabric plugin replaces every Linear."""
    return inp.quant == "4bit" and inp.model_impl == "litgpt"


def _state_copy(inp: Any, comp: int) -> int:
    """Bytes per element alive while one 4-bit weight is dequantized: the state-dtype tensor
    plus, when that dtype is not the compute dtype, the ``.to`` copy (precision ``bf16`` under
    Lightning's fp16 state; ``fp16`` computes in the state's own dtype)."""
    if inp.model_impl == "litgpt":
        state = LIGHTNING_STATE_BYTES
        same = inp.precision in ("fp16", "amp-fp16")
        return state if same else state + comp
    return comp


def dequant_transients(inp: Any, arch: Any, prm: Any, comp: int) -> tuple[float, float]:
    """(head, block) bytes of one dequantized 4-bit weight: the LM head's when it is 4-bit
    (else 0) and the largest block matrix's. Zero without a 4-bit base."""
    if inp.quant != "4bit":
        return 0.0, 0.0
    per = _state_copy(inp, comp)
    width = max(arch.intermediate_size, getattr(arch, "moe_intermediate_size", 0) or 0)
    q_dim = arch.num_heads * arch.head_dim
    if inp.model_impl == "litgpt" or arch.model_type in _FUSED_QKV:
        q_dim += 2 * arch.num_kv_heads * arch.head_dim    # one fused q/k/v matrix
    block = arch.hidden_size * max(width, q_dim)
    head = float(prm.lm_head) if head_quantized(inp) else 0.0
    return head * per, float(block) * per
