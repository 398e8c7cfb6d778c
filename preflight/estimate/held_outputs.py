"""Model outputs that the training loop keeps alive across steps.

A loop that binds the model's output at loop level (``outputs = model(**batch)``, then
``outputs.loss.backward()`` or ``outputs.logits.sum().backward()``, no ``del``) keeps each
step's output object until the next step's forward returns and replaces it. So:

- during the next forward, the PREVIOUS step's logits and the cache its model returned
  (``past_key_values``) are alive next to the new activations (the end of the forward is the
  moment both exist in full);
- through the step's own backward, its outputs stay referenced: at the end of backward, when
  every gradient exists and the saved activations are gone, its logits and its cache are
  still there; at the start, the part of the cache autograd does not save is extra, and so
  are the returned logits wherever the loss's own backward bytes do not count them (an eager
  cross-entropy saves its fp32 log-softmax output, not the logits: est79, measured on CPU with
  torch's profiler, ``calibration/est79_loop_logits.py``: transformers 4.57's loss path is 12
  bytes per token x vocabulary at the start of backward, 14 with the output object kept).

What a cache holds in training (transformers' decoders return one whenever
``config.use_cache`` is true, the default, and transformers' own gradient checkpointing is off:
its branch, ``if self.gradient_checkpointing and self.training``, sets ``use_cache = False``):
per layer and token, the key after rotary embeddings and the value. Read in transformers
4.42.0/4.44.0 (``modeling_gpt_neox.py``):

- GPT-NeoX builds ``key = torch.cat((key_rot, key_pass))`` where ``key_rot`` was multiplied by
  the fp32 ``cos_cached`` tables: before 4.45 the cached key is fp32 (4 bytes x hidden), which
  SDPA does not save (it saves ``key.to(value.dtype)``); the value is a view of the fused
  ``query_key_value`` output and keeps that whole tensor (3 x hidden) alive. From 4.45 the
  rotary tables come in the input's dtype: a 16-bit key, the one SDPA saves.
- GPT-2 before 4.52 (read in 4.42.0, 4.46.0, 4.48.0 and 4.50.0: ``present = (key, value)``
  after ``self.c_attn(hidden_states).split(self.split_size, dim=2)`` and a view/permute per
  head): key and value are views of the fused ``c_attn`` output, so the cache keeps that
  whole tensor (3 x hidden). Eager attention's matmuls save reshaped copies, and SDPA from
  4.48 gets ``.contiguous()`` copies (``integrations/sdpa_attention.py``), so none of it is
  what autograd saves; before 4.48, SDPA receives the views themselves (the contiguous
  copies are only for torch < 2.2 with a mask), and the cache is the storage SDPA saves.
  From 4.52 the cache is a ``Cache`` object (``past_key_values.update``): not read here.
- Other decoders: key and value of the key/value heads in the compute dtype.

The Trainer (``compute_loss`` returns the loss and drops the outputs) and loops that only keep
the loss do not hold any of this across steps: ``EstimateInput.keeps_outputs`` is False by
default. The step's own cache still exists at the end of its forward, until the output object
is dropped: the part autograd does not save is extra at that moment, whatever the loop keeps.

Checkpointing applied by torch's wrapper rather than by transformers
(``torch.distributed.algorithms._checkpoint.checkpoint_wrapper.apply_activation_checkpointing``,
as FSDP/accelerate ``activation_checkpointing`` and llama-recipes'
``policies.apply_fsdp_checkpointing`` do) leaves ``model.gradient_checkpointing`` False, so
``use_cache`` stays on (``EstimateInput.use_cache`` True): every layer returns its key and value
while its internals are not saved (the wrapper saves the layer's input only), so the WHOLE
cache is extra: at the end of forward, and through backward when the loop keeps the outputs.
llama-recipes PR #41 (4 x A100, Llama-2-7B LoRA, FSDP, that wrapper, transformers 4.31) measured
4.98 GB less peak active memory once the loop stopped keeping ``outputs`` (logits and cache);
PR #165 (``use_cache=False`` under FSDP) about 4 GB less: the cache, 2 x 4,096 x 2 bytes per layer
and token, 4.29 GB at 32 layers x 8,192 tokens.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate.buffers import _minor, gpt_neox_legacy

#: GPT-2 returns key/value views of its fused c_attn output as the cache before this version
#: (4.52 moves to ``past_key_values.update``), and from 4.48 SDPA gets contiguous copies.
GPT2_VIEW_CACHE_UNTIL = (4, 52)
GPT2_SDPA_COPIES_FROM = (4, 48)


def cache_returned(inp: Any, arch: Any) -> bool:
    """Whether a training forward returns the KV cache: transformers' decoders with
    ``use_cache`` on. ``inp.use_cache`` None: the config's value (on by default), off under
    gradient checkpointing, which is taken to be transformers' own (it switches the cache off);
    True with checkpointing: torch's wrapper, which does not."""
    if inp.model_impl != "transformers" or arch.family != "decoder":
        return False
    if inp.use_cache is not None:
        return bool(inp.use_cache)
    return not inp.grad_ckpt and bool((arch.extra or {}).get("use_cache", True))


def returned_cache(inp: Any, arch: Any, comp: float, tokens: float) -> tuple[float, float]:
    """(bytes of the cache one training step returns, the part of it autograd does not save)."""
    if not cache_returned(inp, arch):
        return 0.0, 0.0
    whole, unsaved = _cache(inp, arch, comp, tokens)
    # checkpointed layers save only their input: nothing of the cache is what autograd keeps
    return whole, (whole if inp.grad_ckpt else unsaved)


def _cache(inp: Any, arch: Any, comp: float, tokens: float) -> tuple[float, float]:
    per_layer = tokens * float(arch.num_layers)
    if gpt_neox_legacy(inp, arch):
        h = arch.num_heads * arch.head_dim
        version = _minor(inp.transformers_version)
        fp32_key = version is not None and version < (4, 45)
        key = h * (4 if fp32_key else comp)
        qkv = 3 * h * comp
        unsaved = key if (fp32_key and inp.attention != "eager") else 0.0
        return per_layer * (key + qkv), per_layer * unsaved
    version = _minor(inp.transformers_version)
    gpt2 = str(getattr(arch, "model_type", "")) == "gpt2"
    if gpt2 and version is not None and version < GPT2_VIEW_CACHE_UNTIL:
        qkv = 3 * arch.num_heads * arch.head_dim * comp     # the whole c_attn output
        views_saved = inp.attention == "sdpa" and version < GPT2_SDPA_COPIES_FROM
        return per_layer * qkv, 0.0 if views_saved else per_layer * qkv
    kv = arch.num_kv_heads * arch.head_dim
    return per_layer * 2 * kv * comp, 0.0


def held_outputs(inp: Any, arch: Any, comp: float, tokens: float,
                 logits_held: float, loop_logits: float = 0.0,
                 logits_outside_bwd: float = 0.0) -> dict[str, float]:
    """Extra bytes per moment when the loop keeps its outputs (0 each when it does not):
    ``forward`` (end of forward: previous step's logits and cache, this step's unsaved cache
    part), ``backward_start`` (this step's unsaved cache part) and ``backward_end`` (this
    step's logits and whole cache). ``loop_logits``: what a loop known to keep its logits holds
    (torchtune before 0.3, ``torchtune_loop.loop_logits_bytes``), in place of ``logits_held``.
    ``logits_outside_bwd``: the returned logits the loss's backward does not count (the eager
    standard loss: ``train_activations``), added at ``backward_start`` when the loop keeps its
    outputs (est79)."""
    if inp.mode != "train":
        return {"forward": 0.0, "backward_start": 0.0, "backward_end": 0.0}
    cache, unsaved = returned_cache(inp, arch, comp, tokens)
    if loop_logits:
        logits_held = loop_logits
    if not (getattr(inp, "keeps_outputs", False) or loop_logits):
        # the step's own output object is dropped after forward: its unsaved cache part
        # exists at the end of forward only
        return {"forward": unsaved, "backward_start": 0.0, "backward_end": 0.0}
    kept_at_start = logits_outside_bwd if getattr(inp, "keeps_outputs", False) else 0.0
    return {"forward": logits_held + cache + unsaved, "backward_start": unsaved + kept_at_start,
            "backward_end": logits_held + cache}
