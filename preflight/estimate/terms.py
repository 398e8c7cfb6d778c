"""Terms of the cost model that depend on a kernel or library choice: the loss
implementation's logits, the LM head's gradients, and the facts a job leaves unknown.
(Split from :mod:`preflight.estimate.model`, which uses them.) The attention-path terms live
in :mod:`preflight.estimate.terms_attention`, the optimizer's in
:mod:`preflight.estimate.terms_optim`, the ZeRO and FSDP terms in
:mod:`preflight.estimate.terms_sharded` and :mod:`preflight.estimate.terms_fsdp`; all are
re-exported here (the cost model reads them as ``terms.X``)."""

from __future__ import annotations

from typing import Any, Optional

from preflight.estimate import activations as A
from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.rotary_tables import remote_code
from preflight.estimate.terms_attention import *  # noqa: F403  (the attention terms, read as terms.X)
from preflight.estimate.terms_attention import _transformers_minor  # (remedy.py reads it here)
from preflight.estimate.terms_fsdp import *  # noqa: F403  (the FSDP terms, read by the cost model as terms.X)
from preflight.estimate.terms_optim import *  # noqa: F403  (the optimizer terms, read as terms.X)
from preflight.estimate.terms_sharded import *  # noqa: F403  (the ZeRO terms, read by the cost model as terms.X)
from preflight.estimate.terms_sharded import deepspeed_parts
from preflight.estimate.torchtune_loop import old_recipes


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


def logits_reduction_loss(elem: int, tv: float) -> dict[str, float]:
    """Logit memory of a "loss" that reduces the logits themselves, no cross-entropy
    (``outputs.logits.sum().backward()``: benchmarks, gradient probes): ``tv`` = tokens x
    vocab, ``elem`` the logits' bytes (:func:`hf_logits_bytes`).

    Forward holds the logits once (no upcast, no log-softmax). ``sum``'s backward is the
    scalar gradient expanded to the logits' shape (a stride-0 view, no storage), but the LM
    head's matmul backward cannot hand a stride-0 matrix to cuBLAS and makes it contiguous:
    backward starts with the logits and one dense gradient of their size,
    ``2 x tv x elem``."""
    return {"logits_held": tv * elem, "logits_fwd": tv * elem, "logits_bwd": 2 * tv * elem,
            "logits_at_head": 2 * tv * elem}


#: Gradient tables alive beyond ``.grad`` at the end of backward of a tied LM head (the head's,
#: held by the engine, and their out-of-place sum; see :func:`tied_embedding_grad`).
TIED_GRAD_TABLES = 2


def tied_embedding_grad(arch: Any, applies: bool, grad_bytes: float) -> float:
    """The transient at the very end of backward of a model whose LM head is tied to its
    input embeddings, when the embeddings train and nothing shards the gradients.

    The tied parameter's AccumulateGrad node has two incoming edges (the head and the
    embedding), so the autograd engine keeps the head's gradient (computed first in backward)
    in the node's InputBuffer until the embedding's backward has returned its own dense
    gradient of the whole table (``embedding_dense_backward``: ``at::zeros({num_weights,
    dim})``). The head's gradient is a view (``mm_mat2_backward`` returns ``(grad.t() @
    mat1).t()`` for the column-major ``weight.t()``; ``TBackward`` transposes it back), so the
    buffer cannot add in place and computes ``old + new``: for that moment three
    ``vocab x embedding dim`` gradients exist, one of which stays as ``.grad`` (counted with
    the gradients): two more than the gradients. Measured with torch's profiler on CPU
    (``calibration/tied_grad.py``, ``calibration/data/tied_embedding_grad.json``: 2.06 tables
    tied, 0.06 untied; the engine's buffer logic is the same on CUDA). Untied, the head's and
    the embedding's gradients are each stored as their ``.grad`` (no copy)."""
    if not applies or not getattr(arch, "tie_embeddings", False) or not arch.vocab_size:
        return 0.0
    if arch.family not in ("decoder", "encoder", "multimodal"):
        return 0.0
    dim = head_dim(arch)
    return float(TIED_GRAD_TABLES * arch.vocab_size * dim * grad_bytes)


def head_dim(arch: Any) -> int:
    """Width of the LM head's ``vocab x dim`` table: OPT's ``word_embed_proj_dim``
    (``embed_dim``), ALBERT's and ELECTRA's ``embedding_size`` (their MLM heads project the
    hidden state down to it before the decoder: ``AlbertMLMHead.dense``,
    ``ElectraGeneratorPredictions.dense``), else the hidden size."""
    extra = getattr(arch, "extra", {}) or {}
    return int(extra.get("embed_dim") or extra.get("embedding_size") or arch.hidden_size)


def head_grad_at_backward_start(arch: Any, applies: bool, grad_bytes: float) -> float:
    """The LM head's weight gradient, made by the head's own backward: the first matmul
    backward of the step, while every activation, the logits and their gradient are still
    alive (``AddmmBackward0``/``MmBackward0``: ``mat2`` gradient ``mat1.t() @ grad``, a
    ``vocab x embedding dim`` table). It then stays: as ``.grad`` (untied) or in the tied
    parameter's InputBuffer (:func:`tied_embedding_grad`). Charged when the head trains
    (a full fine-tune) and no earlier micro-step's gradient already holds it (then it is
    accumulated in place) and nothing shards it. Measured with torch's profiler on CPU
    (``calibration/head_grad.py``: DistilBERT's MLM step peaks inside the head's
    ``AddmmBackward0``)."""
    if not applies or not arch.vocab_size:
        return 0.0
    if arch.family not in ("decoder", "encoder", "multimodal"):
        return 0.0
    dim = head_dim(arch)
    return float(arch.vocab_size * dim * grad_bytes)


def unknown_alternatives(inp: EstimateInput) -> list[tuple[dict[str, Any], str]]:
    """Facts the input does not know that change the peak, each as (the other value, why).

    Only facts left unset (None) count; a value from the plan, the command line or a dev-set
    row is known. Each one is a setup detail published jobs leave unstated and that moved
    measured peaks of the public dev set's fitting half (docs/calibration.md)."""
    out: list[tuple[dict[str, Any], str]] = []
    train = inp.mode == "train"
    fsdp = bool(inp.fsdp) and inp.world_size > 1
    if train and fsdp and inp.grad_accum > 1 and inp.fsdp_unsharded_accum is None:
        out.append(({"fsdp_unsharded_accum": True, "fsdp_frozen_grads":
                     True if inp.fsdp_frozen_grads is None else inp.fsdp_frozen_grads},
                    "not known whether FSDP accumulates gradients unsharded (no_sync)"))
    if train and fsdp and inp.lora and inp.fsdp_frozen_grads is None:
        out.append(({"fsdp_frozen_grads": True},
                    "not known whether FSDP keeps gradients for frozen weights (use_orig_params, "
                    "adapters and base in one unit)"))
    if train and loss_compiled(inp) is None and bool(getattr(inp.arch, "vocab_size", None)):
        out.append(({"compiled_loss": True},
                    "not known whether the loss runs inside the compiled region (estimated "
                    "eager: torch.compile(model) leaves a loss computed on its logits eager)"))
    if (train and inp.compiled and inp.compiled_loss is None and model_computes_loss(inp)
            and bool(getattr(inp.arch, "vocab_size", None))):
        out.append(({"compiled_loss": False},
                    "estimated with the loss inside the compiled model (transformers computes it "
                    "in forward from labels); a loss the script computes on the logits runs eager"))
    if inp.mode == "generate" and inp.legacy_kv_cache is None:
        out.append(({"transformers_version": "4.41"},
                    "transformers version not known: before 4.42 generate keeps the previous "
                    "step's whole KV cache while building the next, before 4.45 its first step "
                    "computes the logits of every prompt position"))
    if (train and inp.transformers_version is None and inp.model_impl == "transformers"
            and inp.loss == "standard" and not loss_compiled(inp)):
        out.append(({"transformers_version": "4.48"},
                    "transformers version not known: 4.46 to 4.48 keep one more fp32 copy of the "
                    "logits (the shifted logits) during the loss"))
    if (inp.transformers_version is None and inp.model_impl == "transformers"
            and str(getattr(inp.arch, "model_type", "")) == "gpt_neox"):
        out.append(({"transformers_version": "4.44"},
                    "transformers version not known: GPT-NeoX before 4.49 keeps a causal-mask "
                    "buffer per layer (before 4.45 also fp32 rotary tables)"))
    if (inp.transformers_version is None and inp.model_impl == "transformers"
            and str(getattr(inp.arch, "model_type", "")) == "gpt2"):
        out.append(({"transformers_version": "5.1"},
                    "transformers version not known: GPT-2 before 5.2 keeps a causal-mask buffer "
                    "per layer"))
    if (train and inp.zero_stage in (1, 2) and inp.offload_optimizer
            and deepspeed_parts(inp.deepspeed_version) is None):
        out.append(({"deepspeed_version": "0.16"},
                    "DeepSpeed version not known (pin it, or --deepspeed-version): 0.14.1 to 0.16 copy "
                    "the fp32 partition to the GPU "
                    "after each offloaded optimizer step"))
    if (train and inp.zero_stage >= 3 and deepspeed_parts(inp.deepspeed_version) is None
            and inp.load_placement in ("gpu", "host")):
        out.append(({"deepspeed_version": "0.19.3"},
                    "DeepSpeed version not known (pin it, or --deepspeed-version): before 0.19.4 "
                    "ZeRO-3 on a model built outside zero.Init keeps each gathered Linear weight "
                    "until its backward"))
    if (train and inp.amp_impl == "apex" and inp.precision == "amp-fp16" and inp.gelu_at_call is None
            and inp.model_impl == "transformers"):
        out.append(({"gelu_at_call": True}, "not known whether the model's GELU is looked up when it "
                    "runs (nn.GELU, F.gelu): apex O1 would run it in fp32 (apex_amp.py)"))
    if train and inp.quant == "4bit" and inp.lora and "kbit_prepared" not in inp.sources:
        out.append(({"kbit_prepared": not inp.kbit_prepared},
                     "not known whether prepare_model_for_kbit_training runs"))
    return out


def loss_compiled(inp: EstimateInput) -> Optional[bool]:
    """Whether the LM loss runs inside a compiled region: False when nothing is compiled;
    the job's own fact (``compiled_loss``, plan ``compile.loss_inside``) when known;
    torchtune's recipes call ``training.compile_loss(self._loss_fn)`` whenever they compile the
    model (every recipe from 0.3; before 0.3 the model alone, torchtune_loop.py), but drop
    what it returns: ``compile_loss`` compiles ``CEWithChunkedOutputLoss.compute_cross_entropy``
    in place and returns ``torch.compile(loss)`` for any other loss (torchtune
    ``training/_compile.py`` at v0.3.1, v0.4.0, v0.6.0; ``full_finetune_single_device.py``
    line 288 at v0.4.0, 294 at v0.6.0), so only the chunked loss runs compiled (est54); a transformers
    model computing its own standard loss (:func:`model_computes_loss`) has it inside the
    compiled forward; otherwise None (unknown: ``torch.compile(model)`` alone leaves a loss
    computed on its output eager)."""
    if not inp.compiled:
        return False
    if inp.compiled_loss is not None:
        return bool(inp.compiled_loss)
    if inp.model_impl == "torchtune":
        return not old_recipes(inp) and inp.loss == "chunked"
    if model_computes_loss(inp):
        return True
    return None


def model_computes_loss(inp: EstimateInput) -> bool:
    """A transformers causal LM given ``labels`` computes its loss inside its own ``forward``
    (``LlamaForCausalLM.forward``: ``if labels is not None: ... loss = loss_fct(shift_logits,
    shift_labels)`` through 4.45, ``self.loss_function(logits, labels, ...)`` after), so
    ``torch.compile(model)`` (the Trainer's ``torch_compile``, accelerate's ``dynamo_backend``)
    compiles the loss with it. True for transformers' modeling code with the standard loss
    unless the plan says the script computes the loss on the returned logits
    (``loss_in_logits_dtype``); the eager loss stays in the interval
    (:func:`unknown_alternatives`) while the job does not state it (``compiled_loss``)."""
    return (inp.model_impl == "transformers" and inp.loss == "standard"
            and not inp.loss_in_logits_dtype)


def compiled_loss_logits(inp: EstimateInput, d: Any, tv: float, tokens: float) -> dict[str, float]:
    """Logit and loss memory of a cross-entropy inside a compiled region (``torch.compile``
    of the model with its loss, or torchtune's ``compile_loss``): inductor fuses the fp32
    upcast, log-softmax and NLL into one kernel, and AOTAutograd's partitioner saves the
    kernel's 16-bit input and a logsumexp per token rather than the fp32 intermediates
    (recomputed in backward). Forward holds the 16-bit logits; backward their gradient next
    to them: the whole of it for a standard loss, one chunk's (torchtune
    ``CEWithChunkedOutputLoss``: 8 chunks) for a chunked one."""
    held = tv * d.comp + tokens * 4
    grad = tv * d.comp if inp.loss == "standard" else tv * 4 / C.CHUNKED_LOSS_CHUNKS
    out = {"logits_held": tv * d.comp, "logits_fwd": held, "logits_bwd": held + grad}
    version = _transformers_minor(inp)
    if (inp.model_impl == "transformers" and compiled_model_loss(inp) and d.comp < 4
            and version is not None and version < (4, 46)):
        # before 4.46 the model's forward upcasts (``logits = logits.float()``) and returns
        # the fp32 logits: a graph output, alive until the loop drops the outputs (before
        # backward), beside the 16-bit ones the partitioner saves
        out["logits_fwd"] = held + tv * 4
    return out


def compiled_model_loss(inp: EstimateInput) -> bool:
    """The loss runs inside the compiled model itself (not torchtune's separately compiled
    loss function)."""
    return inp.model_impl == "transformers" and model_computes_loss(inp) and inp.compiled_loss is not False


def hf_logits_bytes(inp: EstimateInput, d: Any) -> int:
    """Bytes per (token x vocab) of the logits the LM head returns.

    prepare_model_for_kbit_training leaves the LM head in fp32: without autocast its logits
    are fp32; under autocast (``amp-*``) the head's matmul runs in the autocast dtype
    whatever its weight's dtype, and the logits are 16-bit."""
    if inp.quant and inp.kbit_prepared and not inp.precision.startswith("amp"):
        return 4
    return int(d.comp)


def returned_logits_bytes(inp: EstimateInput, elem: int, arch: Any = None) -> int:
    """Bytes per (token x vocab) of the logits a transformers causal LM puts in its output
    object (what a loop that keeps ``outputs`` holds: held_outputs.py), ``elem`` being the head's
    own output bytes (:func:`hf_logits_bytes`).

    Before 4.46 the decoders' heads upcast unconditionally and return the copy: transformers
    4.31.0 ``modeling_llama.py`` ``LlamaForCausalLM.forward``: ``logits = self.lm_head(
    hidden_states)``, ``logits = logits.float()``, ``return CausalLMOutputWithPast(loss=loss,
    logits=logits, ...)``; the 16-bit head output is not saved by ``float()``'s backward and is
    freed, so the output holds fp32 logits, 4 bytes. From 4.46 the upcast moved into the loss
    function and the output keeps the head's dtype. The heads of :data:`LOSS_IN_LOGITS_DTYPE`
    never upcast before 4.49; encoders' heads never. Unknown version: ``elem`` (the latest)."""
    version = _transformers_minor(inp)
    if (elem >= 4 or version is None or version >= (4, 46)
            or str(getattr(arch, "family", "")) != "decoder"
            or str(getattr(arch, "model_type", "")) in LOSS_IN_LOGITS_DTYPE):
        return elem
    return 4


#: Model types whose causal-LM head computed its loss itself before transformers 4.49
#: (``CrossEntropyLoss()(lm_logits[..., :-1, :].contiguous(), ...)``: no fp32 upcast) and
#: moved to ``self.loss_function`` in 4.49 (read in the 4.41.2, 4.45.2, 4.48.1, 4.49.0 and
#: 4.50.0 wheels). gpt_neo, gptj and codegen also shifted in-model but upcast first
#: (``.to(torch.float32)``): 12 bytes, as charged for every head before 4.46.
LOSS_IN_LOGITS_DTYPE = ("gpt2", "gpt_bigcode", "bloom", "opt", "gpt_neox", "falcon", "mpt")


def _loss_in_logits_dtype(inp: EstimateInput, arch: Any) -> bool:
    if inp.loss_in_logits_dtype:
        # the script's own cross-entropy on the logits the model returns (no labels passed):
        # the shifted copy and log_softmax in the logits' dtype, whatever the version
        return True
    version = _transformers_minor(inp)
    # est71: the list is of transformers' own modeling files; a repository's own file (the
    # config's ``auto_map``) computes its own loss: ChatGLM-6B's ``modeling_chatglm.py``
    # (liucongg/ChatGLM-Finetuning 79bdc89, glm1/modeling_chatglm.py:1208) upcasts,
    # ``lm_logits = lm_logits.to(torch.float32)`` before the shift and the cross-entropy
    return (version is not None and version < (4, 49) and not _remote_code(arch)
            and str(getattr(arch, "model_type", "")) in LOSS_IN_LOGITS_DTYPE)


def _remote_code(arch: Any) -> bool:
    return arch is not None and remote_code(arch)


def autocast_on(inp: EstimateInput) -> bool:
    """Whether autocast runs around the forward and the loss: ``amp-*`` precision unless the plan
    says no autocast runs (``autocast`` False, plan ``precision.autocast``: FSDP's
    ``MixedPrecision(param_dtype=bf16)`` / FSDP2 ``MixedPrecisionPolicy`` cast the gathered
    weights to 16 bits, so the model computes in 16 bits, but nothing puts ``cross_entropy`` /
    ``log_softmax`` on autocast's fp32 list: a loss the script computes on the 16-bit logits stays
    in their dtype). Unknown (None): ``amp-*`` is autocast, as before."""
    return inp.precision.startswith("amp") and getattr(inp, "autocast", None) is not False


def hf_loss_backward_bytes(inp: EstimateInput, elem: int, arch: Any = None) -> int:
    """Bytes per (token x vocab) at the start of the loss's backward: log_softmax's saved
    output, the nll gradient and log_softmax's gradient, fp32 each
    (:data:`constants.LOGITS_BACKWARD_FP32`); in the logits' own dtype for a head that
    computes its loss without upcasting (:data:`LOSS_IN_LOGITS_DTYPE`) outside autocast."""
    if _loss_in_logits_dtype(inp, arch) and not autocast_on(inp):
        return 3 * elem
    return C.LOGITS_BACKWARD_FP32


def hf_loss_forward_bytes(inp: EstimateInput, elem: int, arch: Any = None) -> int:
    """Bytes per (token x vocab) alive while transformers' causal-LM loss runs (forward),
    ``elem`` being the logits' own bytes (:func:`hf_logits_bytes`).

    - 4.49 and later (``ForCausalLMLoss`` pads the labels instead of shifting the logits):
      the logits, their fp32 upcast (a copy only for 16-bit logits) and log_softmax's fp32
      output: ``elem + 4 + 4`` (``elem + 4`` for fp32 logits);
    - 4.46 to 4.48 (the loss moved to ``ForCausalLMLoss``, which still takes
      ``logits[..., :-1, :].contiguous()``): one more fp32 copy, the shifted logits, while
      the model's forward keeps its 16-bit logits for the output: ``elem + 4 + 4 + 4``;
    - 4.45 and earlier (the model upcasts in place of its 16-bit logits, ``logits =
      logits.float()``, then shifts): the fp32 logits, the shifted copy and log_softmax's
      output: ``4 + 4 + 4``.

    The shifted copy exists only with more than one sequence per micro-batch
    (:func:`shifted_logits_copy`): ``elem + 4 + 4`` and ``4 + 4`` at batch 1.

    Unknown version: the latest layout (the interval covers 4.46-4.48,
    :func:`unknown_alternatives`).

    A head of :data:`LOSS_IN_LOGITS_DTYPE` before 4.49 keeps its logits for the output and
    shifts them in their own dtype: ``elem + elem`` and log_softmax's output, ``elem``
    without autocast, or autocast's fp32 copy and an fp32 output (``4 + 4``) under it."""
    if _loss_in_logits_dtype(inp, arch):
        # (the model types' own ``lm_logits[..., :-1, :].contiguous()``: a view at batch 1;
        # a script's own shift is not read, its copy is kept)
        shift = elem if inp.loss_in_logits_dtype or int(inp.micro_batch or 1) > 1 else 0
        return elem + shift + (4 + 4 if autocast_on(inp) else elem)
    latest = elem + C.LOGITS_FORWARD_FP32 - (0 if elem < 4 else 4)
    version = _transformers_minor(inp)
    shifted = shifted_logits_copy(inp)
    if version is not None and version < (4, 46):
        return 4 + shifted + 4
    if version is not None and version < (4, 49):
        return latest + shifted
    return latest


def shifted_logits_copy(inp: EstimateInput) -> int:
    """Bytes per (token x vocab) of ``logits[..., :-1, :].contiguous()`` in transformers'
    causal-LM loss before 4.49 (:data:`constants.HF_SHIFTED_LOGITS_FP32`).

    ``Tensor.contiguous()`` returns the tensor itself when it is already contiguous. Dropping
    the last position of a ``(batch, seq, vocab)`` tensor leaves a contiguous view when
    ``batch`` is 1 (the dropped row is the end of the storage), so one sequence per micro-batch
    makes no copy; from two sequences on, the gaps between them force a copy. Checked on fake
    tensors (the view shares the fp32 logits' storage at batch 1)."""
    return C.HF_SHIFTED_LOGITS_FP32 if int(inp.micro_batch or 1) > 1 else 0
