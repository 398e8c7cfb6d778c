"""Inference and generation phases of the cost model (prefill, decode; one forward pass).
(Split from :mod:`preflight.estimate.model`, which calls it.)"""

from __future__ import annotations

from typing import Any

from preflight.estimate import activations as A
from preflight.estimate import activations_vision as AV
from preflight.estimate import contrastive as CL
from preflight.estimate import generate_loop as GL
from preflight.estimate import python_ops as PO
from preflight.estimate import window_cache as WC
from preflight.estimate.autocast_cache import lm_head, nograd_cache_bytes
from preflight.estimate.dequant import dequant_transients, stored_weights
from preflight.estimate.gqa_decode import repeated_kv_bytes
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.terms import attention_kernel

# --------------------------------------------------------------------------- inference


def inference_phases(inp: EstimateInput, arch: Any, prm: Any, ph: Any, pb: tuple[float, float],
                     ab: tuple[float, float], notes: list[str]) -> tuple[str, ...]:
    """Adds the inference (``forward``) or generation (``prefill``, ``decode``) terms to
    ``ph`` and returns the phases it filled; under autocast over fp32 weights every phase
    also holds autocast's cache of the weights' compute-dtype casts (autocast_cache.py)."""
    from preflight.estimate.train_phase import _dtypes

    phases = _inference_phases(inp, arch, prm, ph, pb, ab, notes)
    d, base_bytes, _ = _dtypes(inp)
    if not inp.quant and inp.precision.startswith("amp"):
        base_bytes = 2.0 if inp.weights_bits == 16 else 4.0
    cache = nograd_cache_bytes(inp, arch, prm, d.comp, base_bytes) / max(inp.world_size, 1)
    if cache:
        for phase in phases:
            ph.add(phase, "autocast_weight_cache", cache, pb)
        notes.append(f"autocast over fp32 weights: its cache keeps a {cache / 1024 ** 3:.2f} GiB "
                     "compute-dtype copy of the matmul weights until the autocast region exits "
                     "(parameters that require grad are cached under no_grad too)")
    return phases


def _inference_phases(inp: EstimateInput, arch: Any, prm: Any, ph: Any, pb: tuple[float, float],
                      ab: tuple[float, float], notes: list[str]) -> tuple[str, ...]:
    from preflight.estimate.train_phase import _dtypes

    d, base_bytes, other_bytes = _dtypes(inp)
    if not inp.quant and inp.precision.startswith("amp"):
        base_bytes = 2.0 if inp.weights_bits == 16 else 4.0
    weights = stored_weights(inp, prm, base_bytes, other_bytes)
    n = max(inp.world_size, 1)
    if n > 1:
        notes.append(f"inference over {n} GPUs: weights and KV cache split across them "
                     "(device_map / tensor parallel)")
    b = inp.micro_batch * (inp.num_beams if inp.mode == "generate" else 1)
    family = arch.family
    # Swin: each stage at its own tokens, width and heads, attending inside windows
    swin = family == "vision" and (getattr(arch, "extra", None) or {}).get("layout") == "swin"
    if family in ("vision", "cnn"):
        image = inp.image_size or arch.image_size
        seq = (image // max(arch.patch_size, 1)) ** 2 + 1 if family == "vision" else 1
    else:
        seq = int(inp.seq_len or 0)
    h = arch.hidden_size
    width = max(arch.intermediate_size, (arch.moe_intermediate_size or 0) * max(arch.experts_per_token, 1))
    ec = d.comp

    def transient(tokens: int, keys: int) -> float:
        if swin:
            return max(stage_transient(*stage) for stage in swin_stages(inp, arch, b))
        return stage_transient(tokens, keys, h, width, arch.num_heads, arch.head_dim)

    # MLP-width tensors alive at once without autograd (est70: 4 for the Python tanh GELU)
    mlp_live = A.mlp_live_nograd(arch)

    def stage_transient(tokens: int, keys: int, h: int, width: int, heads: int,
                        head_dim: int) -> float:
        out: float = tokens * (mlp_live * width * ec + 2 * h * d.res + ec * (heads * head_dim))
        if attention_kernel(inp) == "eager" and "softmax" in (inp.python_ops or ()):
            # est87: a hand-written attention (the softmax in Python ops: the masked and shifted
            # scores, exp and the quotient) without autograd: its score tensors die when the
            # attention returns, before the MLP makes its own, so the layer's transient is the
            # larger of the two; beside the scores the attention holds q, k and v
            scores = ((tokens // max(keys, 1)) * heads * keys * keys
                      * PO.softmax_live_nograd(ec, inp.precision.startswith("amp"), inp.device))
            qkv = tokens * ec * (heads + 2 * PO.kv_heads(arch, heads)) * head_dim
            return tokens * 2 * h * d.res + max(tokens * mlp_live * width * ec, qkv + scores)
        if attention_kernel(inp) == "eager":
            # transformers' eager attention: summed with the MLP, as before est87 (its attention
            # side beyond the scores, the 4D mask and q/k/v, is not charged; est87's replay)
            out += (tokens // max(keys, 1) if family != "cnn" else 0) * heads * keys * keys * eager_softmax_peak(arch, ec)
        return out

    if family == "cnn":
        acts = AV.cnn(arch, d, batch=inp.micro_batch, image=inp.image_size or arch.image_size)
        ph.add("forward", "weights", weights, pb)
        ph.add("forward", "prefill_transient", acts.backward, ab)
        return ("forward",)
    if inp.mode == "infer" and CL.is_clip(arch):
        # CLIP: the text and vision towers run one after the other (the larger layer transient
        # of the two), the image batch is held throughout, and the output is the batch x batch
        # similarity matrix, not vocabulary logits (contrastive.py)
        vision = CL.vision_tower(arch)
        image = int(inp.image_size or vision.image_size)
        vseq = CL.vision_tokens(vision, image)
        vis = stage_transient(b * vseq, vseq, vision.hidden_size, vision.intermediate_size,
                              vision.num_heads, vision.head_dim)
        pixels = float(b * vision.num_channels * image * image * 4)
        ph.add("forward", "weights", weights / n, pb)
        ph.add("forward", "prefill_transient", max(transient(b * seq, seq), vis) + pixels, ab)
        ph.add("forward", "logits_loss", 2.0 * b * b * ec, ab)
        return ("forward",)
    if inp.mode == "infer":
        ph.add("forward", "weights", weights / n, pb)
        ph.add("forward", "prefill_transient", transient(b * seq, seq), ab)
        if arch.vocab_size and family != "vision" and lm_head(arch):
            ph.add("forward", "logits_loss", b * seq * arch.vocab_size * ec, ab)
        return ("forward",)
    if inp.use_cache is False and arch.vocab_size and family == "decoder":
        # no KV cache: every step runs the model over the whole sequence (nocache_phases)
        return nocache_phases(inp, arch, ph, weights / n, b, seq, transient, pb, ab)
    # a sliding window cuts the cache by release and attention path (window_cache.py)
    cache = WC.cache_positions(inp, arch, seq)
    context = cache.context
    if cache.note:
        notes.append(cache.note)
    kv_per_pos = (arch.num_layers * 2 * arch.num_kv_heads * arch.head_dim * ec)
    kv_prompt = kv_per_pos * cache.prompt * b
    kv_full = kv_per_pos * context * b
    last_logits = b * arch.vocab_size * (ec + 4)
    kvb = pb if prm.source != "guessed" else ab
    ph.add("prefill", "weights", weights / n, pb)
    ph.add("prefill", "kv_cache", kv_prompt / n, kvb)
    ph.add("prefill", "prefill_transient", transient(b * seq, seq), ab)
    full = prompt_logits(inp, arch, b, seq, ec)
    if full:
        # transformers before 4.45: the head runs over every prompt position once the
        # layers are done (their transients freed), beside the weights and the prompt's cache
        ph.add("head", "weights", weights / n, pb)
        ph.add("head", "kv_cache", kv_prompt / n, kvb)
        ph.add("head", "logits_loss", full, ab)
        notes.append(f"transformers {inp.transformers_version}: the first generate step computes "
                     "the logits of every prompt position (num_logits_to_keep arrived in 4.45)")
    else:
        ph.add("prefill", "logits_loss", last_logits, ab)
    # a 4-bit base: bitsandbytes' matmul_4bit dequantizes the weight (MatMul4Bit) unless the
    # input is one row without grad (gemv_4bit): the prompt always, decoding steps when the
    # batch (or beams) has more than one row (dequant.py)
    head_t, block_t = dequant_transients(inp, arch, prm, d.comp)
    if b * seq > 1:
        ph.add("prefill", "dequant_transient", max(head_t, block_t), ab)
    if b > 1:
        ph.add("decode", "dequant_transient", max(head_t, block_t), ab)
    ph.add("decode", "weights", weights / n, pb)
    ph.add("decode", "kv_cache", kv_full / n, kvb)
    copy = decode_cache_copy(inp, kv_per_pos * b, context, arch.num_layers)
    # GQA under eager attention: one layer's cache expanded to every query head (gqa_decode.py)
    expanded = repeated_kv_bytes(inp, arch, attention_kernel(inp), b, context, ec)
    ph.add("decode", "prefill_transient", (copy + expanded if inp.legacy_kv_cache else max(copy, expanded)) / n,
           kvb)
    ph.add("decode", "logits_loss", last_logits, ab)
    held = prompt_logits_held(inp, arch, b, seq, ec)
    if held:
        # the first decoding forward runs while the prefill's outputs (its full logits) are
        # still referenced: the prompt's cache, the step's new cache and those logits
        # the step's new cache (cache.first positions) beside the prompt's (cache.prompt + 2 is
        # the context whose previous step held cache.prompt positions)
        ph.add("first_decode", "weights", weights / n, pb)
        ph.add("first_decode", "kv_cache", kv_per_pos * cache.first * b / n, kvb)
        ph.add("first_decode", "prefill_transient",
               decode_cache_copy(inp, kv_per_pos * b, seq + 2, arch.num_layers) / n, kvb)
        ph.add("first_decode", "logits_loss", held + last_logits, ab)
    if inp.legacy_kv_cache:
        notes.append(f"transformers {inp.transformers_version}: generate keeps the previous step's "
                     "KV cache (legacy tuples, before 4.42) while each step builds the next")
    if held:
        return ("prefill", "head", "first_decode", "decode")
    return ("prefill", "head", "decode") if full else ("prefill", "decode")


#: model types whose ``*ForCausalLM.forward`` upcast the logits with ``logits = logits.float()``
#: before 4.45 (Llama's forward and the ones copied from it)
UPCAST_LOGITS_TYPES = frozenset({"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "gemma",
                                 "gemma2"})


def prompt_logits(inp: EstimateInput, arch: Any, batch: int, seq: int, comp_bytes: float) -> float:
    """Bytes of the logits the first ``generate`` step holds for every prompt position, or 0
    when it computes the last position only.

    ``generate`` passes ``num_logits_to_keep=1`` to models whose forward takes it from
    transformers 4.45 (huggingface/transformers#31292, merged 2024-08-23, after 4.44.0);
    ``LlamaForCausalLM.forward`` then slices ``hidden_states[:, -num_logits_to_keep:, :]``
    before the head. Before 4.45, and for model types whose forward does not take it
    (GPT-2 before 4.53: ``generate_loop.keeps_last_logits``), the head runs over all
    ``batch x seq`` positions (``logits = self.lm_head(hidden_states)``) and, before 4.45,
    Llama's forward and those copied from it upcast them, ``logits = logits.float()``: the
    compute-dtype logits and their fp32 copy exist together (6 bytes per element in bf16; an
    fp32 model's ``.float()`` returns the tensor itself). In 4.45 and 4.46 ``_sample`` clones the
    whole logits tensor before slicing it (``generate_loop.step_clone``). Only transformers' own
    modeling code; 0 when the version is unknown (``unknown_alternatives`` widens the interval
    with 4.41)."""
    if not arch.vocab_size or seq <= 1 or GL.keeps_last_logits(inp) is not False:
        return 0.0
    elements = float(batch) * seq * arch.vocab_size
    return elements * (_logits_bytes(inp, arch, comp_bytes) + _upcast_copy(inp, arch, comp_bytes)) \
        + GL.step_clone(inp, _logits_bytes(inp, arch, comp_bytes), elements)


def _upcast_copy(inp: EstimateInput, arch: Any, comp_bytes: float) -> float:
    """Bytes per element of the 16-bit logits beside their fp32 upcast (before 4.45), else 0."""
    ver = GL.release(inp)
    if ver is None or ver >= (4, 45):
        return 0.0
    return comp_bytes if comp_bytes < 4 and str(getattr(arch, "model_type", "")) in UPCAST_LOGITS_TYPES else 0.0


def _logits_bytes(inp: EstimateInput, arch: Any, comp_bytes: float) -> float:
    """Bytes per element of the logits ``outputs.logits`` holds (fp32 after Llama's upcast
    before 4.45, else the compute dtype)."""
    return 4.0 if _upcast_copy(inp, arch, comp_bytes) else comp_bytes


def prompt_logits_held(inp: EstimateInput, arch: Any, batch: int, seq: int, comp_bytes: float) -> float:
    """Bytes of the prefill's logits still referenced during the first decoding forward, or 0.

    Before 4.42 ``_sample`` (4.35 ``greedy_search``/``sample``: ``outputs = self(**model_inputs,
    ...)``, then ``next_token_logits = outputs.logits[:, -1, :]``) rebinds ``outputs`` only when
    the next forward returns, so the prefill's output, its whole logits tensor, lives through
    it (upcast to fp32 for Llama's forward and those copied from it). 4.42 - 4.44 clone the
    last row and ``del outputs``: nothing held. 4.45 - 4.46 hold the whole clone when the logits
    are fp32 (``generate_loop.held_logits``). Only when the prefill computed every prompt
    position's logits (:func:`prompt_logits`) and a decoding forward runs (``max_new_tokens``
    >= 2)."""
    if inp.max_new_tokens < 2 or not prompt_logits(inp, arch, batch, seq, comp_bytes):
        return 0.0
    return GL.held_logits(inp, _logits_bytes(inp, arch, comp_bytes), float(batch) * seq * arch.vocab_size)


def nocache_phases(inp: EstimateInput, arch: Any, ph: Any, weights: float, b: int, seq: int,
                   transient: Any, pb: tuple[float, float], ab: tuple[float, float]) -> tuple[str, ...]:
    """``generate`` with ``use_cache=False``: no KV cache; every step runs the model over the
    whole sequence. The last forward reads ``P + N - 1`` positions (``P`` prompt tokens, ``N``
    new ones), the step before it ``P + N - 2``.

    Two moments of that last step: a layer's transient at full length (``decode``), and the
    head's output (``nocache_head``): the logits of every position unless the model keeps the
    last one (``generate_loop.keeps_last_logits``; the book's and other hand-written loops run
    the head over every position), plus what ``_sample`` keeps of them
    (``generate_loop.held_logits``: the previous step's, before 4.42 and, for fp32 logits, in
    4.45 - 4.46) and its own clone (4.45 - 4.46). GPT-2 fp32 at 1,000 tokens under 4.46:
    (998 + 999 + 999) x 50,257 x 4 bytes = 574 MiB above the weights."""
    ec = float(_dtype_bytes(inp))
    last = seq + max(int(inp.max_new_tokens), 1) - 1
    ph.add("prefill", "weights", weights, pb)
    ph.add("prefill", "prefill_transient", transient(b * seq, seq), ab)
    if GL.keeps_last_logits(inp):
        positions, previous = 1, 1
    else:
        positions, previous = last, last - 1
    lb = _logits_bytes(inp, arch, ec)
    vocab = float(arch.vocab_size)
    first = b * seq * vocab if positions > 1 else b * vocab
    ph.add("prefill", "logits_loss", first * (lb + _upcast_copy(inp, arch, ec)) + GL.step_clone(inp, lb, first), ab)
    if inp.max_new_tokens < 2:
        return ("prefill",)
    held = GL.held_logits(inp, lb, b * previous * vocab)
    ph.add("decode", "weights", weights, pb)
    ph.add("decode", "prefill_transient", transient(b * last, last), ab)
    ph.add("decode", "logits_loss", held, ab)
    elements = b * positions * vocab
    ph.add("nocache_head", "weights", weights, pb)
    ph.add("nocache_head", "logits_loss",
           held + elements * (lb + _upcast_copy(inp, arch, ec)) + GL.step_clone(inp, lb, elements), ab)
    return ("prefill", "decode", "nocache_head")


def _dtype_bytes(inp: EstimateInput) -> float:
    from preflight.estimate.train_phase import _dtypes

    return float(_dtypes(inp)[0].comp)


def decode_cache_copy(inp: EstimateInput, kv_per_token: float, context: int, layers: int) -> float:
    """Bytes of KV cache that exist twice during the last decoding forward.

    Each step grows every layer's keys and values by ``torch.cat`` (a new tensor, the old one
    freed once nothing references it). Since transformers 4.42 ``generate`` holds the cache
    in one ``DynamicCache`` whose list entry is replaced layer by layer: one layer's cache
    (``context - 1`` positions) exists twice at a time. Before 4.42 the cache travels as
    legacy tuples: ``model_kwargs["past_key_values"]`` (and the step's ``model_inputs``)
    keep the previous step's tuple, all layers of it, until the forward returns with the
    new one, so the whole previous cache (``context - 1`` positions) is held beside it
    (transformers' own comment on the change: the "back and forth from legacy format ...
    keeps copying the cache thus using much more memory").

    With ``P`` prompt tokens and ``N`` new ones, the prefill makes the first token and
    ``N - 1`` decoding forwards follow; the last one reads ``P + N - 2`` cached positions
    (``context - 2``). With ``N = 1`` no decoding forward runs and nothing is copied."""
    if inp.max_new_tokens < 2:
        return 0.0
    previous = kv_per_token * max(context - 2, 0)
    return previous if inp.legacy_kv_cache else previous / max(layers, 1)


def eager_softmax_peak(arch: Any, comp_bytes: float) -> float:
    """Bytes per attention score that exist together at the softmax of an eager forward
    without grad.

    Llama's eager attention (transformers 4.35 ``LlamaAttention.forward``; Mistral, Qwen2 and
    Gemma copy it; the same line in 5.x's ``eager_attention_forward``) runs ``attn_weights =
    nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)``:
    while ``.to`` writes its 16-bit result, the fp32 softmax output and the 16-bit scores it
    read (still bound to ``attn_weights`` until the assignment) are all alive: 2 + 4 + 2 bytes
    in bf16 (est27). An fp32 model's ``.to(float32)`` returns the softmax output itself. Other
    model types keep the earlier charge of 6 bytes (their eager code was not read here: GPT
    BigCode's scripted ``upcast_masked_softmax``, GPT-2's and BERT's softmax in the scores'
    dtype)."""
    if comp_bytes < 4 and str(getattr(arch, "model_type", "")) in UPCAST_LOGITS_TYPES:
        return comp_bytes + 4.0 + comp_bytes
    return 6.0


def swin_stages(inp: EstimateInput, arch: Any, batch: int) -> list[tuple[int, int, int, int, int, int]]:
    """(tokens, keys, width, MLP width, heads, head size) of each Swin stage, with the
    windows of ``activations_vision.swin_geometry``."""
    x = getattr(arch, "extra", {}) or {}
    geometry = AV.swin_geometry(arch, inp.image_size or arch.image_size)
    out = []
    for s, (_, w, windows) in zip(x.get("stages") or [], geometry):
        width, heads = int(s["hidden"]), int(s["heads"])
        out.append((batch * windows * w * w, w * w, width, int(s["mlp"]), heads,
                    width // max(heads, 1)))
    return out
