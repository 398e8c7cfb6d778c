"""What a ``torch.compile``d training step saves for backward less than the eager one (est54).

AOTAutograd traces forward and backward as one joint graph and inductor's default partitioner,
``min_cut_rematerialization_partition`` (torch ``_functorch/partitioners.py``, read at pytorch
00c07b9; the older ``ban_recomputation`` form bans the same ops), chooses the tensors the
backward receives by a minimum cut: a pointwise ("fusible") op may be recomputed inside a
backward kernel instead of being saved, while ``should_ban_recomputation`` keeps (saves) a node
that is compute-intensive (``mm``, ``bmm``, ``addmm``, convolutions, SDPA's flash and efficient
kernels: ``compute_intensive_ops``), random, a reduction whose output is
over 4x smaller than its input (``ban_if_reduction``), or one a non-fusible backward op reads
(``is_materialized_backwards``: a matmul's input for the weight gradient, SDPA's q/k/v). So,
per token of one transformer layer:

- a Python-level RMSNorm (transformers' ``LlamaRMSNorm``, litgpt's ``RMSNorm``, torchtune's
  ``RMSNorm``: ``x.float()``, ``mean(x * x)``, ``x * rsqrt(...)``, ``.to(dtype)``, ``* weight``)
  keeps, eagerly, its fp32 input and (when its weight trains) the normalised value; compiled,
  its input in the residual stream's own dtype and the per-row ``rsqrt`` (a reduction's
  output, banned from recomputation: 4 bytes): the fp32 upcast and the normalised value are
  pointwise and recomputed in backward. Its output, the next linear's input, is materialised
  in backward (the weight gradient's matmul reads it) and stays saved in both;
- a gated MLP's activation output (``silu(gate) * up``: SiLU's or GELU's output) is
  pointwise and recomputed from the gate projection's output, which is saved anyway (an
  ``mm`` output the activation's backward reads); the product (the down projection's input)
  and the up projection's output stay saved. One MLP width less.

Not changed: q, k, v and the attention output (SDPA's backward reads them: materialised),
LayerNorm (eagerly it keeps its input and per-row statistics only, what the compiled step
keeps too), a plain MLP's
activation (its output is the second linear's input), dropout (random), LoRA's casts (each
adapter's matmul reads its own input), MoE experts and Liger's kernels (which save
less already: ``activations.liger_norm``, ``activations.liger_mlp_saved_less``).

Measured against it (in-sample, held-out-25, docs/calibration.md "est54"): Lightning
Thunder's litgpt Llama-2-13B layers under ``torch.compile`` (inductor) grow by 1.50 GiB of
saved tensors per layer at 2 x 4,096 tokens; the eager count is 1.94 GiB, this one 1.42 GiB.
"""

from __future__ import annotations

from typing import Any

#: the reciprocal RMS per row a compiled RMSNorm keeps for backward (fp32), bytes per token
RSTD_BYTES = 4


def compiled_norm_saved_less(h: int, res_bytes: float, eager_norm: float) -> float:
    """Bytes per token one Python-level RMSNorm saves less under the compiled step:
    ``eager_norm`` (what :func:`preflight.estimate.activations.transformer_layer` charges it
    eagerly) minus its input in the residual dtype and the fp32 ``rsqrt`` per row."""
    return max(float(eager_norm) - (h * float(res_bytes) + RSTD_BYTES), 0.0)


def compiled_mlp_saved_less(arch: Any, width: int, comp_bytes: float) -> float:
    """Bytes per token a gated MLP saves less under the compiled step: the activation's
    output (one ``width`` in the compute dtype), recomputed from the saved gate output. 0 for
    a plain MLP, whose activation output is the second linear's input."""
    return float(width) * float(comp_bytes) if getattr(arch, "gated_mlp", False) else 0.0
