"""Activation memory: what autograd keeps for backward, per layer, by architecture.

Each function returns bytes for one micro-batch on one GPU. The structure (which tensor
is saved, in which dtype) follows the transformers modeling code; see docs/estimator.md
("Activations") for the derivation of each term and constants.py for the coefficients. The CNN
and Swin backbones are in activations_vision.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from preflight.estimate import constants as C
from preflight.estimate import int8_matmul as I8
from preflight.estimate import python_ops as PO
from preflight.estimate.activations_names import (  # noqa: F401  (moved; re-exported)
    _NAMES,
    _names,
    _other,
    adapted_count,
    all_linear_names,
    qkv_names,
)
from preflight.estimate.compiled_acts import compiled_mlp_saved_less, compiled_norm_saved_less

_LAYERNORM_TYPES = {"gpt2", "gpt_neox", "falcon", "starcoder2", "bert", "roberta", "xlm-roberta",
                    "distilbert", "electra", "albert", "vit", "clip", "bart", "mbart", "whisper",
                    "olmo", "swin"}


@dataclass(frozen=True)
class Dtypes:
    """Element sizes: ``res`` the residual stream, ``comp`` matmul inputs/outputs (the
    autocast dtype), ``weights`` stored weights of trainable layers; ``autocast`` whether
    torch.autocast is on (each op casts its inputs, and the casts are what is saved)."""

    res: int
    comp: int
    weights: float
    autocast: bool = False
    mask: int = 1   # dropout mask bytes: bool on CUDA; on CPU the noise tensor (input dtype)
    bf16: bool = False  # the 16-bit dtype is bfloat16 (math_attention_backward_bytes)


@dataclass(frozen=True)
class LayerActs:
    """Bytes one layer keeps for backward (``saved``) and the transient peak of its own
    backward (``backward``); ``inputs`` what gradient checkpointing keeps per layer."""

    saved: float
    inputs: float
    backward: float


def resid_dropout(arch: Any, override: Optional[float]) -> Optional[float]:
    """The residual stream's dropout p when the model sets it apart from the attention
    probabilities' (OPT: ``dropout`` vs ``attention_dropout``); None: the same p as
    :func:`_dropout` (also when the job overrides the dropout)."""
    if override is not None:
        return None
    value = (getattr(arch, "extra", {}) or {}).get("resid_dropout")
    return float(value) if isinstance(value, (int, float)) else None


def _dropout(arch: Any, override: Optional[float]) -> float:
    if override is not None:
        return override
    x = getattr(arch, "extra", {}) or {}
    value = x.get("dropout")
    if isinstance(value, (int, float)):
        return float(value)
    # transformers defaults: GPT-2 (resid/attn/embd 0.1), BERT/ViT-free (0.1 / 0.0), T5 0.1
    return {"gpt2": 0.1, "bert": 0.1, "roberta": 0.1, "xlm-roberta": 0.1, "distilbert": 0.1,
            "t5": 0.1, "mt5": 0.1, "bart": 0.1, "whisper": 0.0}.get(arch.model_type, 0.0)


#: Models whose GELU is, by their config class's default, the tanh formula written out in
#: Python (``gelu_new``): autograd keeps its input, tanh output, 0.5*x and 1+tanh besides the
#: result. Used only when the config names no activation: the name it gives
#: (``activation_function: gelu_pytorch_tanh``, ``hidden_act: gelu_new``, ALBERT's default)
#: is ``arch.extra["mlp_act"]`` and decides (``constants.MLP_ACT_SAVED``).
_PY_GELU = {"gpt2", "phi", "gptj", "codegen", "moss"}
#: transformers' ACT2FN names of that formula (activations.py: ``NewGELUActivation``)
_PY_GELU_ACTS = {"gelu_new"}
#: Models whose eager attention calls softmax in the scores' dtype (no explicit fp32 upcast;
#: checked in transformers 5.x modeling files). The others (Llama family, T5, ViT, CLIP,
#: GPT-NeoX, SigLIP, ...) upcast explicitly and keep a compute-dtype copy.
_IMPLICIT_SOFTMAX = {"bert", "roberta", "xlm-roberta", "distilbert", "electra", "albert", "gpt2",
                     "bart", "mbart", "whisper", "falcon"}
#: Models whose eager attention clamps the masked scores with a binary max before softmax
#: (OPT: ``torch.max(attn_weights, torch.tensor(finfo.min))``, read in transformers 4.45 and
#: 4.48; the causal mask is always passed): ``maximum``'s backward keeps both inputs, one
#: more compute-dtype copy of the scores.
_CLAMPED_SCORES = {"opt"}
#: Models without rotary embeddings (no cos/sin kept per layer).
_NO_ROPE = {"gpt2", "bert", "roberta", "xlm-roberta", "distilbert", "electra", "albert", "t5", "mt5", "umt5", "bart",
            "mbart", "whisper", "vit", "clip", "opt", "bloom", "falcon", "swin"}


def math_attention_backward_bytes(ec: int, *, autocast: bool, implicit: bool, dropout: bool,
                                  half_to_float: bool = False) -> float:
    """Net growth, bytes per score, while autograd runs one materialised (eager / math)
    attention's backward, above what is live when it starts (est88, replayed by
    ``calibration/est88_attn_backward.py`` -> ``calibration/data/est88_attn_backward.json``).

    Each backward node allocates its gradient while its input gradient and the saved tensors
    the later nodes need are still alive; a node's own saved tensors die when it returns:

    - fp32 without attention dropout: the probability matmul's gradient (4) beside the saved
      softmax output (4), then softmax's input gradient (4): **8** (the dropout output and its
      mask, saved with dropout, die first, so with dropout the growth stays at 4)
    - CUDA autocast: softmax runs on the fp32 cast of the 16-bit scores, so its input gradient
      is fp32 too: the fp32 gradient of the 16-bit copy (4) and softmax's (4) beside the
      saved fp32 output, less the 16-bit copy that died: **6**, with or without dropout
    - 16-bit scores with the softmax in 16-bit (``_IMPLICIT_SOFTMAX``) and attention dropout:
      each gradient is 2 bytes and the dropout output dies first: **2**
    - 16-bit scores with an explicit fp32 softmax (``softmax(x, dtype=float32).to(dtype)``, the
      Llama family): ATen's ``softmax`` converts a bfloat16 input to fp32 first (only a CUDA
      **Half** input takes ``_softmax(half_to_float=True)``), so bf16's backward makes the
      fp32 gradient of the ``.to`` copy (4) and softmax's fp32 input gradient (4) beside the saved
      fp32 output: **6** (5 with dropout: its 1-byte mask and 16-bit output die first; the CPU
      replay's noise tensor is the input's dtype, so it reads 4 there); fp16 on CUDA writes
      softmax's input gradient in fp16 (2): 4, as before (not replayable on the CPU)
    - 16-bit implicit without dropout: 4, as before
    """
    if ec >= 4:
        return 4.0 if dropout else 8.0
    if autocast:
        return 6.0
    if implicit:
        return 2.0 if dropout else 4.0
    if half_to_float:
        return 4.0
    return 5.0 if dropout else 6.0


def transformer_layer(arch: Any, d: Dtypes, *, tokens: int, seq: int, batch: int,
                      attention: str, train_weights: bool, lora_targets: frozenset[str],
                      lora_r: int, lora_dropout: float, dropout: float, cross_seq: int = 0,
                      cross_tokens: int = 0, moe: bool = False, device: str = "cuda",
                      fused_gelu: bool = False, impl: str = "transformers",
                      resid_dropout: Optional[float] = None,
                      sdpa_out_copy: bool = False, value_view_of_qkv: bool = False,
                      softmax_input: bool = False, linear_saves_input: bool = False,
                      liger: bool = False, packed_in_proj: bool = False,
                      compiled: bool = False, scores_capped: bool = False,
                      gelu_fp32: bool = False,
                      softmax_input_bytes: Optional[int] = None,
                      python_ops: tuple[str, ...] = (), int8_matmul: bool = False,
                      int8_input_bytes: int = 0, sdpa_repeated_kv: bool = False) -> LayerActs:
    """One decoder/encoder layer (``cross_seq`` > 0 adds the cross-attention of T5/BART).

    Per token, what autograd saves (see docs/estimator.md, "Activations"):
    norms keep their fp32 input and, when their weight trains, the normalised value;
    a linear keeps its input when its weight trains (under autocast: its own cast copy);
    a LoRA adapter keeps its (fp32-cast, dropped-out) input and the rank-r projection;
    attention keeps q, k, v and its output (SDPA/flash: plus logsumexp; eager: the
    repeated k/v of GQA, the fp32 softmax and its compute-dtype copy); a gated MLP keeps
    gate, activation, up and (when the down projection trains) their product; dropout keeps
    its mask (and its output when a matmul reads it).

    ``liger``: Liger's kernels replace RMSNorm and the SwiGLU product (:func:`liger_norm`,
    :func:`liger_mlp_saved_less`).

    ``compiled``: the step runs under ``torch.compile``; its partitioner recomputes the norms'
    upcasts and the gated MLP's activation in backward instead of saving them
    (:mod:`preflight.estimate.compiled_acts`). ``scores_capped``: the materialised scores pass
    a ``tanh`` soft cap, whose output is saved too (:mod:`preflight.estimate.softcap`).
    ``int8_matmul``: the frozen linears are bitsandbytes' LLM.int8, which keep an int8 copy of
    their input each (:data:`preflight.estimate.int8_matmul.CAT_BYTES`); ``int8_input_bytes``
    (bitsandbytes 0.39-0.44) the input itself too, once per group of linears reading it
    (:func:`preflight.estimate.int8_matmul.kept_input_bytes`).
    """
    h = arch.hidden_size
    q_dim = arch.num_heads * arch.head_dim
    kv_dim = arch.num_kv_heads * arch.head_dim
    heads = arch.num_heads
    # a decoder whose config reader found LayerNorm (OPT, BLOOM, GPTBigCode, StableLM, MPT
    # with biases, ...): nn.LayerNorm saves its input (and a per-token mean/rstd), not the
    # fp32 upcast and normalised value of transformers' Python RMSNorm
    rms = (arch.model_type not in _LAYERNORM_TYPES
           and (getattr(arch, "extra", {}) or {}).get("norm") != "layer")
    ec, er = d.comp, d.res
    trains = train_weights
    lora_elem = 2 if d.autocast else 4   # what lora_A saves: autocast cast, or the fp32 cast
    if impl != "transformers":
        # litgpt and torchtune adapters run in the model's dtype on x itself (no fp32 cast)
        lora_elem = ec
    # adapters reading one input keep it once: litgpt's fused qkv applies one dropout for
    # all its adapters; torchtune's LoRALinear uses nn.Identity when lora_dropout is 0
    shared_adapter_input = impl == "litgpt" or (impl == "torchtune" and lora_dropout == 0)
    mask = d.mask
    # residual dropout: the attention dropout's p unless the model has its own (OPT:
    # config.dropout on the residual stream, attention_dropout on the probabilities)
    resid = dropout if resid_dropout is None else resid_dropout
    # SDPA with attention dropout: CUDA's memory-efficient kernel applies it inside the
    # kernel; on CPU the math fallback materialises the scores like eager attention
    math_attention = attention == "eager" or (dropout > 0 and device == "cpu")

    # bitsandbytes' 4-bit matmul (``MatMul4Bit.forward``: ``if any(ctx.needs_input_grad[:2]):
    # ctx.tensors = (A, B)``) saves its input whenever the input requires grad, though the
    # frozen weight needs no gradient: a torch linear with a frozen weight saves none
    quant_saves = not trains and d.weights < 1.0 and impl != "torchtune"
    # (torchtune's 4-bit base is torchao's NF4: ``LinearNF4.forward`` saves only the weight)
    # DeepSpeed ZeRO-3's ``LinearFunctionForZeroStage3`` (installed as F.linear) saves every
    # linear's input too, frozen weight or not (terms.zero3_linear_saves_input)
    quant_saves = quant_saves or (not trains and linear_saves_input)
    # bitsandbytes' LLM.int8 matmul keeps the input's int8 copy ``CAt``, one per linear: each
    # call quantizes the input itself (int8_matmul.py; the input too from 0.39.1, not charged)
    int8_saves = int8_matmul and not trains

    def lin_input(width: int, names: tuple[str, ...], shared: bool = False,
                  other: tuple[str, ...] = ()) -> float:
        """Saved input of a group of linears reading the same tensor (``shared``: the
        tensor is already counted, e.g. the SDPA output that o_proj reads; ``other``: the
        same linears' names in transformers 4.x, which LoRA targets may use)."""
        out = 0.0
        if quant_saves and not shared:
            out += width * ec
        if int8_saves:
            out += len(names) * width * I8.CAT_BYTES
            if not shared and not quant_saves:   # the input itself (0.39-0.44)
                out += width * int8_input_bytes
        if trains and not shared:
            # under autocast each linear saves its own cast copy of an fp32 input
            copies = len(names) if (d.autocast and ec < er) else 1
            out += copies * width * ec
        n_lora = adapted_count(names, lora_targets, other)
        if n_lora and shared_adapter_input:
            lora_mask = 4 if mask > 1 else 1
            out += width * (lora_elem + (lora_mask if lora_dropout > 0 else 0))
            out += n_lora * lora_r * lora_elem
        elif n_lora:
            # dropout runs on the fp32-cast input: its CPU noise tensor is fp32 too
            lora_mask = 4 if mask > 1 else 1
            per = width * (lora_elem + (lora_mask if lora_dropout > 0 else 0))
            out += n_lora * (per + lora_r * lora_elem)
        return out

    def norm(second: bool = False) -> float:
        if rms and liger:
            return liger_norm(h, er, second)
        if rms:
            out = C.NORM_SAVED_FP32 * 4 * h
            if trains:
                out += C.NORM_SAVED_NORMED * h * er
            if compiled:
                out -= compiled_norm_saved_less(h, er, out)
            return out
        return h * max(er, 4 if d.autocast else er)  # LayerNorm keeps its input (fp32 under autocast)

    def scores(keys: int) -> float:
        """Bytes per query token of materialised attention probabilities: the softmax
        output (fp32 when the model upcasts explicitly, as Llama and T5 do, or when CUDA
        autocast runs softmax in fp32), then what the probability matmul keeps: the
        dropout output (with the mask) or a compute-dtype copy. A softmax written in Python
        keeps its own (python_ops.py)."""
        if "softmax" in python_ops:
            return PO.softmax_saved_per_query(heads, keys, ec, d.autocast, device) + (
                heads * keys * (mask + ec) if dropout > 0 else 0)
        if ec == 4:
            soft, copy = 4, 0
        elif arch.model_type not in _IMPLICIT_SOFTMAX or (d.autocast and device != "cpu"):
            soft, copy = 4, ec
        else:                                          # softmax in the 16-bit dtype
            soft, copy = ec, 0
        clamp = ec if arch.model_type in _CLAMPED_SCORES else 0
        # torch before 1.11 also keeps the softmax's input (terms.softmax_saves_input): in the
        # dtype of its output, unless a CUDA fp16 softmax reads the fp16 scores themselves
        # (``softmax_input_bytes``: softmax_dtype.py)
        kept_input = ((soft if softmax_input_bytes is None else softmax_input_bytes)
                      if softmax_input else 0)
        # a tanh soft cap before the softmax keeps its output, in the compute dtype (softcap.py)
        kept_input += ec if scores_capped else 0
        if dropout > 0:
            return heads * keys * (soft + mask + ec + clamp + kept_input)
        return heads * keys * (soft + copy + clamp + kept_input)

    per_token = 0.0
    fixed = 0.0
    # self-attention block
    per_token += norm()
    # torch.nn.MultiheadAttention projects q, k and v of self-attention with one packed linear
    # (``_in_projection_packed``: ``linear(q, w, b)`` when q is k is v): one autocast copy
    qkv = ("in_proj",) if packed_in_proj else qkv_names(arch, impl)
    per_token += lin_input(h, qkv, other=() if impl == "litgpt" or packed_in_proj else _other(arch, "qkv"))
    if math_attention:
        per_token += ec * 3 * q_dim                       # q and k, v (repeated to q heads)
        per_token += scores(seq)
        per_token += lin_input(q_dim, _names(arch, "o"), other=_other(arch, "o"))  # contiguous copy
    else:
        # q (after RoPE), k, v; k and v at the query heads when repeat_kv expanded them
        # (terms_attention.sdpa_repeats_kv)
        per_token += ec * (q_dim + 2 * (q_dim if sdpa_repeated_kv else kv_dim))
        per_token += heads * C.LSE_BYTES + ec * q_dim     # logsumexp + output (= o_proj input)
        # (unless the output comes back in (batch, heads, seq, dim) memory and the model's
        # ``transpose(1, 2).contiguous()`` copies it: o_proj reads the copy; see
        # terms.sdpa_output_copied)
        per_token += lin_input(q_dim, _names(arch, "o"), shared=not sdpa_out_copy,
                              other=_other(arch, "o"))
        if impl == "litgpt" and arch.num_kv_heads == arch.num_heads:
            # litgpt splits q, k, v out of its fused ``attn`` output by view; q and k are new
            # tensors after RoPE (torch.cat), but v reaches SDPA as a view (reshape of the
            # permuted qkv, no copy without GQA), so the saved v keeps the whole fused output:
            # q_dim + kv_dim more than v (lit_gpt/model.py CausalSelfAttention.forward)
            per_token += ec * (q_dim + kv_dim)
    if value_view_of_qkv:
        # transformers' GPT-NeoX: q and k are new tensors after the partial-rotary cat, v is
        # a permuted view of the fused query_key_value output, so the saved v keeps all of it
        # (terms.value_view_keeps_qkv)
        per_token += ec * (q_dim + kv_dim)
    if impl == "litgpt":
        # litgpt's LoRAQKVLinear.zero_pad places the adapted parts with index_copy when not all
        # of q, k, v are adapted; index_copy's backward reads its source (derivatives.yaml:
        # ``source: grad.index_select(dim, index).expand_as(source)``), so the adapters'
        # output (q_dim / kv_dim wide per adapted part) stays saved
        adapted = [n for n in qkv_names(arch, impl) if n in lora_targets]
        if adapted and len(adapted) < 3:
            widths = {"q_proj": q_dim, "k_proj": kv_dim, "v_proj": kv_dim}
            per_token += lora_elem * sum(widths.get(n, q_dim) for n in adapted)
    if resid > 0:
        per_token += h * mask                             # residual dropout
    if cross_seq:
        # the cross-attention's linears have the self-attention's names (T5 ``EncDecAttention``
        # q/k/v/o; BART, mBART, Marian, Pegasus, Whisper ``encoder_attn`` q_proj/.../out_proj)
        cross_q, cross_kv = _names(arch, "qkv")[:1], _names(arch, "qkv")[1:]
        per_token += norm() + lin_input(h, cross_q) + ec * q_dim
        fixed += cross_tokens * 2 * q_dim * ec            # k, v of the encoder output
        # adapters on k and v read the encoder output: each keeps its own (cast, dropped-out)
        # copy of it and its rank-r projection, per decoder layer
        fixed += cross_tokens * lin_input(h, cross_kv, shared=True)
        cross_o = _names(arch, "o")
        if math_attention:
            per_token += scores(cross_seq) + lin_input(q_dim, cross_o)
        else:
            per_token += heads * C.LSE_BYTES + ec * q_dim + lin_input(q_dim, cross_o, shared=True)
        if dropout > 0:
            per_token += h * mask
    # MLP block: its own norm, unless the block is parallel behind one shared norm (Phi,
    # GPT-J, CodeGen, Falcon with one LayerNorm: norms_per_layer 1), whose output the
    # attention's adapters/linears already count
    extra = getattr(arch, "extra", {}) or {}
    if int(extra.get("norms_per_layer", 2)) != 1 and not (extra.get("parallel_norm_input")
                                                          and not rms):
        per_token += norm(second=True)
    # (GPT-NeoX's parallel residual: both LayerNorms read the same hidden_states, whose
    # storage is saved once; measured, calibration/data/saved_per_layer.json)
    if moe and arch.num_experts:
        k = max(arch.experts_per_token, 1)
        width = arch.moe_intermediate_size or arch.intermediate_size
        # per routed row: the gathered input and the expert output (weighted by the router)
        per_token += k * (_mlp(arch, width, ec, trains, lora_targets) + 2 * ec * h)
        # router: fp32 softmax over experts, top-k weights and int64 indices
        per_token += arch.num_experts * 4 + C.ROUTER_BYTES_PER_CHOICE * k + 4
        shared = (getattr(arch, "extra", {}) or {}).get("shared_expert_intermediate", 0)
        if shared:
            per_token += _mlp(arch, shared, ec, trains, lora_targets) + ec * h
        # LoRA on the experts' linears (transformers 4.x modules: Mixtral's w1/w3/w2,
        # Qwen-MoE's and DeepSeek's gate_proj/up_proj/down_proj; 5.x fuses the experts into
        # parameters that no module name targets): every routed row passes the adapters of
        # its expert, each keeping its own copy of that row. The up group is charged once
        # below for every layer (here: the shared expert's adapters, or none to charge)
        up_lora = lin_input(h, _names(arch, "up"), shared=True, other=_other(arch, "up"))
        down_names, down_other = _names(arch, "down"), _other(arch, "down")
        per_token += k * (up_lora + lin_input(width, down_names, shared=True, other=down_other))
        if shared:
            per_token += lin_input(shared, down_names, shared=True, other=down_other)
        else:
            per_token -= up_lora
    else:
        per_token += _mlp(arch, arch.intermediate_size, ec, trains or quant_saves, lora_targets,
                          fused_gelu, gelu_fp32)
        if "silu" in python_ops and arch.gated_mlp:   # x * sigmoid(x) keeps the sigmoid too
            per_token += PO.SILU_EXTRA_WIDTHS * arch.intermediate_size * ec
        if liger:
            per_token -= liger_mlp_saved_less(arch, arch.intermediate_size, ec)
        elif compiled:
            per_token -= compiled_mlp_saved_less(arch, arch.intermediate_size, ec)
        per_token += lin_input(arch.intermediate_size, _names(arch, "down"), shared=True,
                              other=_other(arch, "down"))
        if dropout > 0 and arch.model_type in ("t5", "mt5", "umt5"):
            per_token += arch.intermediate_size * mask    # T5DenseActDense's own dropout
    per_token += lin_input(h, _names(arch, "up"), other=_other(arch, "up"))
    if resid > 0:
        per_token += h * mask
    saved = per_token * tokens + fixed
    if arch.model_type not in _NO_ROPE:  # RoPE cos/sin, one (seq x head_dim) pair per layer
        saved += 2 * seq * arch.head_dim * er
    width = (arch.moe_intermediate_size * max(arch.experts_per_token, 1)
             if (moe and arch.num_experts) else arch.intermediate_size)
    # net growth while the layer's backward runs: the gradient of its widest intermediate
    # (its saved tensors are freed as fast as new gradients appear)
    backward = tokens * ec * width * C.LAYER_BACKWARD_WIDTHS
    if math_attention:
        if "softmax" in python_ops or arch.model_type in _CLAMPED_SCORES or softmax_input or scores_capped:
            per_score = 4.0   # the paths est88 did not replay keep the earlier charge
        else:
            per_score = math_attention_backward_bytes(
                ec, autocast=d.autocast and device != "cpu",
                implicit=arch.model_type in _IMPLICIT_SOFTMAX, dropout=dropout > 0,
                half_to_float=device == "cuda" and not d.bf16)
        backward += batch * heads * seq * seq * per_score
        if "softmax" in python_ops:   # the division's and exp's gradients (python_ops.py)
            backward += batch * heads * seq * seq * PO.SOFTMAX_BWD_EXTRA * PO.exp_bytes(ec, d.autocast, device)
    return LayerActs(saved=saved, inputs=tokens * h * er, backward=backward)


def liger_norm(h: int, er: float, second: bool) -> float:
    """Bytes per token Liger's ``LigerRMSNormFunction`` saves: ``ctx.save_for_backward(X, W,
    RSTD)`` (``liger_kernel/ops/rms_norm.py``, the same at 1129508 and ead96b6), the input
    itself in its own dtype and one fp32 reciprocal RMS per row; no fp32 copy of the input and
    no normalised value (transformers' ``LlamaRMSNorm`` keeps both: :func:`transformer_layer`'s
    ``norm``). The first norm's input is the layer's input, held anyway; the second's is the
    residual sum after attention, a tensor of its own (``second``)."""
    return 4.0 + (h * er if second else 0.0)


def liger_mlp_saved_less(arch: Any, width: int, ec: float) -> float:
    """Bytes per token fewer than the model's own gated MLP saves when Liger's kernel computes
    the gate: ``LigerSiLUMulFunction.forward`` runs ``swiglu_forward(a, b)`` in one kernel and
    ``ctx.save_for_backward(a, b)``, recomputing ``silu(a)`` in backward; transformers'
    ``down_proj(act_fn(gate_proj(x)) * up_proj(x))`` keeps the activation's output too (the
    multiplication saves both its operands). One tensor of the MLP width; 0 for a plain MLP."""
    return width * ec if arch.gated_mlp else 0.0


def _mlp(arch: Any, width: int, ec: int, trains: bool, lora_targets: frozenset[str],
         fused_gelu: bool = False, gelu_fp32: bool = False) -> float:
    """Saved intermediates of one MLP per token (its input and a LoRA adapter on its down
    projection are counted by the caller). ``gelu_fp32``: apex O1 runs torch's GELU in fp32
    (apex_amp.py), which keeps an fp32 copy of the first linear's output."""
    down_saved = trains
    if arch.gated_mlp:
        return width * ec * (C.GATED_MLP_SAVED + gated_act_extra(arch, fused_gelu)
                             - (0 if down_saved else 1))
    if relu_saves_once(arch):
        # ReLU's backward reads its OUTPUT (threshold_backward(grad, result, 0)), and that
        # output is the down projection's input: one tensor of the MLP width is saved,
        # whether the down projection trains or not (fc1's output is freed after ReLU)
        return width * ec * C.RELU_MLP_SAVED
    # (an implementation that calls torch's gelu(approximate="tanh"), as litgpt's GptNeoxMLP
    # does for every model, keeps fc's output and the gelu output, where transformers'
    # Python-level gelu_new keeps five tensors)
    # the activation the config names (``activation_function`` / ``hidden_act``, read by the
    # config readers into ``mlp_act``) decides; a model type's own default when it names none
    act = str((getattr(arch, "extra", {}) or {}).get("mlp_act") or "")
    py_gelu = arch.model_type in _PY_GELU or act in _PY_GELU_ACTS
    if fused_gelu:
        plain = C.PLAIN_MLP_SAVED
    elif act in C.MLP_ACT_SAVED:
        plain = C.MLP_ACT_SAVED[act]
    else:
        plain = C.PY_GELU_MLP_SAVED if py_gelu else C.PLAIN_MLP_SAVED
    saved = width * ec * (plain - (0 if down_saved else 1))
    if gelu_fp32 and not fused_gelu and not py_gelu and act in ("", "gelu"):
        from preflight.estimate.apex_amp import gelu_extra_bytes

        saved += gelu_extra_bytes(width, ec)
    return saved


def gated_act_extra(arch: Any, fused: bool = False) -> float:
    """MLP-width tensors a gated MLP's activation keeps beyond its input and output (est80): a
    formula written in Python ops keeps its intermediates in ``act(gate(x)) * up(x)`` as it does
    in a plain MLP (``constants.MLP_ACT_SAVED`` less the 2 of a one-kernel activation): 3 for
    ``gelu_new`` (tanh, 0.5*x, 1+tanh), the activation of T5 v1.1 / mT5 / umT5 / Flan-T5's
    ``gated-gelu`` (``T5Config``: ``dense_act_fn = "gelu_new"``). Measured on transformers 5.25's
    ``T5DenseGatedActDense`` by ``calibration/est80_t5_forward.py``. 0 for a one-kernel activation
    (SiLU, ``gelu_pytorch_tanh``), an unnamed one, or a compiled (fused) one."""
    if fused:
        return 0.0
    act = str((getattr(arch, "extra", {}) or {}).get("mlp_act") or "")
    return max(C.MLP_ACT_SAVED.get(act, C.PLAIN_MLP_SAVED) - C.PLAIN_MLP_SAVED, 0.0)


def mlp_live_nograd(arch: Any) -> float:
    """MLP-width tensors alive at once per token while an MLP runs without autograd (the
    inference and prefill transient): 4 for transformers' Python-written tanh GELU
    (``gelu_new``, GPT-2 / Phi / GPT-J / CodeGen's default, ``constants.PY_GELU_MLP_LIVE``),
    else ``constants.MLP_LIVE_NOGRAD_DEFAULT`` (measured: ``calibration/mlp_live_nograd.py``)."""
    if arch.gated_mlp:
        return C.MLP_LIVE_NOGRAD_DEFAULT
    act = str((getattr(arch, "extra", {}) or {}).get("mlp_act") or "")
    if act in _PY_GELU_ACTS or (not act and arch.model_type in _PY_GELU):
        return C.PY_GELU_MLP_LIVE
    return C.MLP_LIVE_NOGRAD_DEFAULT


def relu_saves_once(arch: Any) -> bool:
    """A plain MLP whose activation is ReLU with no dropout between it and the down
    projection (OPT: ``activation_function="relu"``, ``activation_dropout=0.0``; a dropout
    with p=0 returns its input, ``at::native::dropout``): ReLU and the down projection save
    the same tensor."""
    x = getattr(arch, "extra", {}) or {}
    if arch.gated_mlp or x.get("mlp_act") != "relu":
        return False
    return not float(x.get("mlp_act_dropout") or 0.0) > 0
