"""A 4-bit base under autocast whose other parts stay fp32 (est56).

lit-gpt's ``--precision bf16-mixed`` with ``--quantize bnb.nf4`` (``finetune/lora.py`` at
064fd52): Fabric's mixed precision leaves every parameter that is not quantized in fp32
(embedding, norms, LoRA), so the residual stream and every norm output are fp32, and
bitsandbytes' ``Linear4bit`` computes in its input's dtype:

- ``Linear4bit.set_compute_type`` (bitsandbytes 0.41.0 ``nn/modules.py`` lines 211-215, the same
  in the current source): ``if x.dtype in [torch.float32, torch.bfloat16]: self.compute_dtype =
  x.dtype``, run on the layer's first call (lines 239-241);
- ``forward`` casts the input to that dtype (lines 243-245) and hands it to ``MatMul4Bit``, which
  keeps it for backward (``autograd/_functions.py`` lines 522-523: ``if
  any(ctx.needs_input_grad[:2]): ctx.tensors = (A, B)``): an fp32 norm output is kept in fp32;
- autocast runs the ``F.linear`` inside (line 516) in bf16, and ``out.to(inp_dtype)`` (line 250)
  returns fp32 again: the MLP's activations (GELU's input, the gated product's operands) and
  the down projection's kept input are fp32.

Attention itself is unchanged: SDPA is on autocast's bf16 list, so q, k, v, its output and the
output projection's input stay 16-bit. So, against the same job in ``bf16-true`` (every tensor
16-bit), each of these is kept at 4 bytes instead of 2, per layer and token:

- the residual stream where a norm keeps it: once with a parallel residual (both norms read the
  block's input), twice otherwise;
- each norm output a 4-bit projection keeps (the attention's and the MLP's);
- the MLP: GELU's input and the down projection's input (2 x width), or for a gated MLP the
  gate's output, SiLU's output, the up projection's output and their product (4 x width);

and once: the final norm's input and output, and the logits the 4-bit head returns (lit-gpt
quantizes every Linear, ``dequant.head_quantized``). The first block's input does not require
grad under LoRA (frozen embedding), so its first norm's input and output are not kept.

Transformers' QLoRA loads the non-quantized modules in 16 bits (fp16 by default for bitsandbytes): nothing
changes there. PEFT's ``prepare_model_for_kbit_training`` (``kbit_prepared``) upcasts every parameter that is not
4-bit to fp32, so under autocast the same mechanism applies (:func:`kbit_fp32_stream`): the residual stream is
fp32 already in the estimate (``step_dtypes``: ``res`` 4), and the norm outputs the 4-bit projections keep and
the MLP's activations are fp32 too; transformers' LM head is not quantized and runs under autocast (16-bit
logits). Under gradient checkpointing (PEFT's default there) only the recomputed layer holds them.
"""

from __future__ import annotations

from typing import Any

#: bytes added per kept element: fp32 (4) where bf16-true keeps 2
_FP32_MORE = 4 - 2


def fp32_parts(inp: Any) -> bool:
    """The job's 4-bit base runs under autocast with its other parts in fp32: lit-gpt's
    mixed precision (``amp-*`` with parameters not loaded in 16 bits)."""
    return (inp.quant == "4bit" and str(inp.precision).startswith("amp") and not inp.kbit_prepared
            and inp.model_impl == "litgpt" and inp.weights_bits != 16)


def kbit_fp32_stream(inp: Any) -> bool:
    """A 4-bit base prepared by PEFT (its other parameters fp32) under autocast; torchtune's NF4 is torchao's,
    not bitsandbytes'."""
    return (inp.quant == "4bit" and str(inp.precision).startswith("amp") and bool(inp.kbit_prepared)
            and inp.model_impl not in ("torchtune", "litgpt"))


def kbit_fp32_compute(inp: Any) -> bool:
    """A bitsandbytes base prepared by PEFT (every other parameter fp32) trained without autocast: the block
    computes in fp32 whatever dtype the model was loaded in (est91). ``Linear8bitLt`` returns ``output.to(A.dtype)``
    and ``Linear4bit`` ``out.to(inp_dtype)`` (bitsandbytes 0.39.1 on; from 0.41.0 ``set_compute_type`` also makes an
    fp32 input the 4-bit layer's compute dtype), and the input is the fp32 norm output, so q, k, v, the attention
    scores and the MLP's activations are fp32. torchtune and litgpt build no such model; DeepSpeed's fp16 / bf16
    engine casts the upcast parameters back to 16 bits (``terms_sharded.deepspeed_casts_params``)."""
    from preflight.estimate.terms_sharded import deepspeed_casts_params
    return (inp.quant in ("4bit", "8bit") and bool(inp.kbit_prepared) and inp.mode == "train"
            and not str(inp.precision).startswith("amp") and inp.model_impl not in ("torchtune", "litgpt")
            and not deepspeed_casts_params(inp))


def kbit_layer_elements(arch: Any) -> float:
    """Elements per token of one block kept in fp32 rather than bf16 when the residual is fp32 already: the
    two norm outputs the 4-bit projections keep and the MLP's activations."""
    return 2 * arch.hidden_size + (4 if arch.gated_mlp else 2) * arch.intermediate_size


def layer_elements(arch: Any, first: bool = False) -> float:
    """Elements per token of one block kept in fp32 rather than bf16 (module docstring)."""
    h = arch.hidden_size
    extra = getattr(arch, "extra", None) or {}
    parallel = bool(extra.get("parallel_norm_input"))
    residual = 1 if parallel else 2
    norm_outputs = 2
    if first:
        # the embedding's output needs no grad: the first norm keeps nothing, nor does the
        # projection reading its output
        residual -= 1
        norm_outputs -= 1
    mlp = (4 if arch.gated_mlp else 2) * arch.intermediate_size
    return (residual + norm_outputs) * h + mlp


def extra_saved(inp: Any, arch: Any, tokens: float) -> float:
    """Bytes of activations kept beyond the 16-bit layout, over all blocks and the final norm."""
    layers = int(arch.num_layers)
    if kbit_fp32_stream(inp) and layers > 0:
        if inp.grad_ckpt:
            # only the recomputed block holds them (the caller adds this to the recomputation)
            return tokens * kbit_layer_elements(arch) * _FP32_MORE
        # the first norm's output needs no grad under LoRA without checkpointing (frozen embedding)
        first = arch.hidden_size if inp.lora else 0
        return tokens * (layers * kbit_layer_elements(arch) - first) * _FP32_MORE
    if not fp32_parts(inp) or layers <= 0:
        return 0.0
    if inp.grad_ckpt:
        # each checkpointed block keeps its fp32 input only (the recomputed block is not added)
        return tokens * layers * arch.hidden_size * _FP32_MORE
    per_token = layer_elements(arch, first=True) + (layers - 1) * layer_elements(arch) + 2 * arch.hidden_size
    return tokens * per_token * _FP32_MORE


def extra_logits(inp: Any, tv: float) -> float:
    """Bytes the 4-bit head's fp32 logits add over 16-bit ones (``tv`` = tokens x vocab)."""
    return tv * _FP32_MORE if fp32_parts(inp) else 0.0


def apply(acts: dict, inp: Any, arch: Any, notes: list) -> dict:
    """``acts`` (train_activations' terms) with the fp32 tensors of :func:`fp32_parts` added."""
    if getattr(arch, "family", "decoder") != "decoder":
        return acts
    tokens = float(inp.micro_batch * int(inp.seq_len or 0))
    if kbit_fp32_stream(inp):
        out = dict(acts)
        key = "recompute" if inp.grad_ckpt else "saved"
        out[key] = acts[key] + extra_saved(inp, arch, tokens)
        notes.append("4-bit base prepared for k-bit training under mixed precision: bitsandbytes computes each "
                     "4-bit linear in its fp32 input's dtype and returns fp32, so the norms' outputs and the "
                     "MLP's activations are kept in fp32")
        return out
    if not fp32_parts(inp):
        return acts
    out = dict(acts)
    out["saved"] = acts["saved"] + extra_saved(inp, arch, tokens)
    if acts.get("logits_held"):
        more = extra_logits(inp, tokens * arch.vocab_size)
        out["logits_held"] = acts["logits_held"] + more
        out["logits_fwd"] = acts["logits_fwd"] + more
    notes.append("4-bit base under mixed precision with fp32 non-quantized parts: bitsandbytes computes "
                 "each 4-bit linear in its fp32 input's dtype and returns fp32, so the norms' outputs, "
                 "the MLP's activations and the head's logits are kept in fp32")
    return out
