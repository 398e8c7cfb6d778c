"""What an LLM.int8 base (bitsandbytes ``Linear8bitLt``, transformers' ``load_in_8bit``) costs in
training beyond its int8 storage (est45).

Read in bitsandbytes' ``autograd/_functions.py``, ``MatMul8bitLt`` (tags 0.37.0 to 0.44.0 carry the
same lines; 0.45.0 keeps the row-major ``CB`` instead of the tiled ``CxB``):

- **The weight, dequantized in backward.** The input's gradient of a frozen int8 weight is a
  16-bit matmul against the whole weight made 16-bit again::

      elif state.CxB is not None:
          CB = (undo_layout(state.CxB, state.tile_indices)
                .to(ctx.dtype_A).mul_(state.SCB.unsqueeze(1).mul(1.0 / 127.0)))
          grad_A = torch.matmul(grad_output, CB)

  ``undo_layout`` returns a new row-major int8 tensor (``outputs = torch.empty_like(tensor)``
  ... ``.contiguous()``) and ``.to(ctx.dtype_A)`` a 16-bit copy of it while it is alive: 1 + 2
  bytes per element of the weight at once (:data:`TILED_BYTES`). After the first forward on a
  Turing or later GPU the weight lives only in the tiled layout (``Linear8bitLt.forward``:
  ``del self.state.CB; self.weight.data = self.state.CxB``), so this is the path training takes.
  Without the tiled layout (bitsandbytes 0.45+, or a GPU before Turing) the branch above it runs,
  ``state.CB.to(ctx.dtype_A, copy=True)``: 2 bytes per element (:data:`ROW_MAJOR_BYTES`). The
  plan does not know the bitsandbytes version; the estimate takes the tiled path (every release
  of 2023-2024, the ones int8 LoRA recipes pinned). One weight at a time: the largest block
  matrix (the LM head stays 16-bit, transformers' ``get_keys_to_not_convert``), charged as the
  4-bit base's dequantized weight is (``dequant_transient``, next to one recomputed layer).
- **The input and its int8 copy, kept for backward (est82).** Whenever the input requires grad
  (adapters below it, or PEFT's ``enable_input_require_grads`` under checkpointing) the forward
  ends with::

      if any(ctx.needs_input_grad[:2]):
          ctx.tensors = (CAt, subA, A)

  ``CAt`` is the new int8 tensor ``F.double_quant(A.to(torch.float16), ...)`` made of the
  input, one per linear (q, k and v each quantize the same input again): 1 byte per input
  element and linear (:data:`CAT_BYTES`), charged with the layer's activations
  (``activations.transformer_layer(int8_matmul=True)``). Every release of the tiled path keeps
  it (0.37.0 and 0.38.0: ``ctx.tensors = (CAt, subA)``; 0.39.1 to 0.44.0 as above; 0.45.0
  quantizes ``CAt`` only when the weight trains). ``A``, the input itself, is kept from 0.39.1
  to 0.44.x (2023-06 to 2024-11) and not before; it is charged only when the job's release is
  known (``EstimateInput.bitsandbytes_version``, :func:`kept_input_bytes`, est83): once per
  group of linears reading the same tensor (q, k and v keep one tensor between them), in the
  input's dtype, where no other saver already counts that tensor. ``subA`` (the input's outlier
  columns) is not charged, like ``subB`` below.
- **The dtype of the dequantized weight (est82).** ``ctx.dtype_A = A.dtype``: the input's dtype,
  not always 16-bit. PEFT's ``prepare_model_for_int8_training`` / ``_kbit_training`` (v0.4.0
  ``utils/other.py`` lines 78-81: ``param.data = param.data.to(torch.float32)`` for every fp16 /
  bf16 parameter) makes the norms and embeddings fp32, so the residual stream, the norms'
  outputs and the int8 outputs (``output.to(A.dtype)``) are fp32 and the weight is made fp32
  again in backward: 1 + 4 bytes per element (:func:`dequant_bytes`).
- **Outlier columns kept between steps (not charged).** Each forward that meets an input value
  of magnitude ``threshold`` (6.0) or more stores the weight's columns for those inputs in 16
  bits on the layer's state and keeps them until the layer's next forward:
  ``state.subB = (outliers * state.SCB.view(-1, 1) / 127.0).t().contiguous().to(A.dtype)``.
  That is ``out_features x (number of input columns with an outlier)`` x 2 bytes per layer, up
  to twice the int8 weights when every column has one. How many columns do depends on the
  model's weights and the data, which a plan does not know; the rows measured here at about a
  thousand tokens per step show little of it (docs/calibration.md "est45"), so it is named in a
  note and not charged.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate.terms_sharded import deepspeed_parts as version_parts

#: bytes per weight element alive while ``undo_layout(state.CxB, ...)`` feeds ``.to(dtype_A)``:
#: the row-major int8 copy and its 16-bit copy (format: bitsandbytes 0.37.0-0.44.0
#: ``MatMul8bitLt.backward``, ``elif state.CxB is not None``)
TILED_BYTES = 3
#: bytes per input element and int8 linear of ``CAt``, the int8 copy of the input
#: ``MatMul8bitLt.forward`` keeps for backward (``ctx.tensors = (CAt, subA, A)``; format:
#: bitsandbytes 0.37.0-0.44.0)
CAT_BYTES = 1
#: the bitsandbytes releases whose ``MatMul8bitLt.forward`` ends with ``ctx.tensors = (CAt,
#: subA, A)``, keeping the input itself: from 0.39 (0.39.1 ``autograd/_functions.py`` line 430)
#: to before 0.45 (0.44.0 line 425; 0.37.0 / 0.38.0 keep ``(CAt, subA)``, 0.45.0 changes the
#: path; format: read in the tags, docs/calibration.md "est82")
KEEPS_INPUT_FROM = (0, 39)
KEEPS_INPUT_BEFORE = (0, 45)
#: the row-major path's ``state.CB.to(ctx.dtype_A, copy=True)``: one 16-bit copy (format:
#: bitsandbytes 0.37.0+ ``MatMul8bitLt.backward``, ``elif state.CB is not None``)
ROW_MAJOR_BYTES = 2
#: ``MatmulLtState.threshold``: transformers' ``llm_int8_threshold`` default (format)
OUTLIER_THRESHOLD = 6.0

#: transformers models whose attention has one fused query/key/value Linear
_FUSED_QKV = ("gpt_neox", "falcon", "bloom", "phi3", "gpt_bigcode")


def largest_int8_matrix(arch: Any) -> int:
    """Elements of the largest block weight (the MLP's or a fused / query projection)."""
    hidden = int(getattr(arch, "hidden_size", 0) or 0)
    width = max(int(getattr(arch, "intermediate_size", 0) or 0),
                int(getattr(arch, "moe_intermediate_size", 0) or 0))
    heads = int(getattr(arch, "num_heads", 0) or 0)
    head_dim = int(getattr(arch, "head_dim", 0) or 0)
    q_dim = heads * head_dim
    if str(getattr(arch, "model_type", "")) in _FUSED_QKV:
        q_dim += 2 * int(getattr(arch, "num_kv_heads", heads) or heads) * head_dim
    return hidden * max(width, q_dim, hidden)


def input_bytes(inp: Any) -> int:
    """Bytes per element of an int8 linear's input (``ctx.dtype_A``): fp32 when the job runs in
    fp32 or PEFT's k-bit preparation made the norms and embeddings fp32, else 16-bit."""
    return 4 if (getattr(inp, "kbit_prepared", False) or inp.precision == "fp32") else 2


def dequant_bytes(inp: Any) -> int:
    """Bytes per weight element alive while the tiled weight is made ``ctx.dtype_A`` again: the
    row-major int8 copy and its copy in the input's dtype (:data:`TILED_BYTES` when 16-bit)."""
    return TILED_BYTES - 2 + input_bytes(inp)


def backward_dequant(inp: Any, arch: Any) -> float:
    """Bytes of the weight ``MatMul8bitLt.backward`` makes ``ctx.dtype_A`` again for the input's
    gradient, the tiled layout's path (:func:`dequant_bytes` per element of the largest block
    matrix). Zero unless an 8-bit base trains (adapters over it)."""
    if inp.quant != "8bit" or inp.mode != "train":
        return 0.0
    return float(largest_int8_matrix(arch)) * dequant_bytes(inp)


def outlier_note(inp: Any, int8_weight_bytes: float) -> str:
    """The note on the outlier columns each layer keeps (not charged)."""
    a = input_bytes(inp)
    return (f"LLM.int8: each 8-bit layer keeps the weight columns (in the input's dtype, "
            f"{8 * a}-bit here) of the inputs that had a value of {OUTLIER_THRESHOLD:g} or more in its "
            f"last forward (bitsandbytes' state.subB), up to {a * int8_weight_bytes / 1024 ** 3:.1f} GiB "
            "if every column had one; how many do depends on the weights and the data and is not "
            "charged")


def kept_input_bytes(inp: Any) -> int:
    """Bytes per element of the input ``A`` that ``MatMul8bitLt`` keeps for backward (its dtype,
    :func:`input_bytes`) when an 8-bit base trains under a bitsandbytes release from
    :data:`KEEPS_INPUT_FROM` to before :data:`KEEPS_INPUT_BEFORE`; 0 otherwise, and when the
    release is unknown."""
    if inp.quant != "8bit" or inp.mode != "train":
        return 0
    parts = version_parts(getattr(inp, "bitsandbytes_version", None))
    if parts is None or not KEEPS_INPUT_FROM <= parts[:2] < KEEPS_INPUT_BEFORE:
        return 0
    return input_bytes(inp)
