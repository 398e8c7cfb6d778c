"""What transformers' ``generate`` loop keeps alive between decoding steps, by release and model
type (est68): the KV cache's format, which positions the head runs over, and which copies of a
step's logits outlive it.

Read from the released wheels' ``transformers/generation/utils.py`` (``GenerationMixin._sample``)
and ``transformers/models/gpt2/modeling_gpt2.py`` (4.41.2, 4.42.4, 4.43.4, 4.44.2, 4.45.0,
4.45.2, 4.46.3, 4.47.1, 4.48.3, 4.50.3, 4.51.3, 4.52.4, 4.53.3):

- **The cache's format.** From 4.42 ``generate`` builds a ``DynamicCache`` only for models that
  set ``_supports_cache_class`` (``_supports_default_dynamic_cache``; "Quick escape route 3: model
  that only supports legacy caches = nothing to prepare"). The others keep legacy tuples: each
  layer's ``torch.cat`` result goes into a new ``presents`` tuple while ``model_kwargs`` still
  holds the previous step's, so the whole previous cache lives through the forward
  (:func:`inference.decode_cache_copy`). GPT-2 sets the attribute from 4.52 (4.51.3's
  ``modeling_gpt2.py`` builds ``presents = presents + (outputs[1],)``; 4.52.4 imports
  ``DynamicCache`` and sets ``_supports_cache_class = True``). :data:`CACHE_CLASS_4_46` lists
  the model types that set it in 4.46.3; a type outside it keeps tuples through 4.46 at least.
- **Which positions the head runs over.** From 4.45 ``generate`` passes
  ``num_logits_to_keep=1`` when the model's ``forward`` takes it (``_supports_num_logits_to_keep``
  reads the signature); :data:`KEEP_LOGITS_4_46` lists the types whose forward takes it in
  4.46.3. GPT-2's forward takes ``logits_to_keep`` from 4.53 (absent in 4.52.4). A type that
  does not take it computes the logits of every position it is given: the whole prompt in the
  first step, and with ``use_cache=False`` the whole sequence in every step.
- **Which logits outlive the step.** ``_sample`` binds ``outputs = self(**model_inputs, ...)``
  and picks the next token's logits:

  ====================  =============================================  ====================
  release               ``next_token_logits =``                        after the step
  ====================  =============================================  ====================
  <= 4.41               ``outputs.logits[:, -1, :]``                   ``outputs`` kept
  4.42 - 4.44           ``outputs.logits[:, -1, :].clone()``           ``del outputs``
  4.45 - 4.46           ``outputs.logits.clone()[:, -1, :].float()``   ``del outputs``
  >= 4.47               ``outputs.logits[:, -1, :].clone().float()``   ``del outputs``
  ====================  =============================================  ====================

  Before 4.42 ``outputs`` is rebound only when the next forward returns: the previous step's
  whole logits live through it. In 4.45 and 4.46 the clone is of the *whole* logits tensor;
  ``.float()`` of fp32 logits returns the slice itself, a view that keeps the whole clone alive
  in ``next_token_logits`` until the next step's clone replaces it (16-bit logits: ``.float()``
  copies one row and the clone is freed at once). So in 4.45 - 4.46 a step with fp32 logits over
  ``P`` positions holds ``P x vocab x 4`` bytes into the next forward, and at the clone the
  logits exist twice beside it.

Only transformers' own modeling code (``model_impl`` transformers) and a stated version;
``None`` where the version is unknown (the estimate then takes the newest behaviour and
``unknown_alternatives`` widens the interval with 4.41)."""

from __future__ import annotations

import re
from typing import Any, Optional

#: model types whose ``PreTrainedModel`` subclass sets ``_supports_cache_class = True`` in
#: transformers 4.46.3 (``grep -rl "_supports_cache_class = True" transformers/models``)
CACHE_CLASS_4_46 = frozenset({
    "bloom", "chameleon", "codegen", "cohere", "dbrx", "falcon", "gemma", "gemma2", "git", "glm",
    "gpt_neo", "gpt_neox", "gpt_neox_japanese", "gptj", "granite", "granitemoe", "idefics",
    "idefics2", "idefics3", "jamba", "jetmoe", "llama", "llava", "llava_next", "llava_next_video",
    "llava_onevision", "longt5", "mimi", "mistral", "mixtral", "mllama", "moshi", "mt5", "nemotron",
    "olmo", "olmoe", "paligemma", "persimmon", "phi", "phi3", "phimoe", "pix2struct", "pixtral",
    "pop2piano", "qwen2", "qwen2_moe", "qwen2_vl", "recurrent_gemma", "stablelm", "starcoder2",
    "switch_transformers", "t5", "udop", "umt5", "video_llava", "vipllava", "whisper", "zamba"})

#: model types whose ``forward`` takes ``num_logits_to_keep`` in transformers 4.46.3
KEEP_LOGITS_4_46 = frozenset({
    "cohere", "dbrx", "gemma", "gemma2", "glm", "idefics2", "jetmoe", "llama", "llava", "llava_next",
    "llava_next_video", "llava_onevision", "mistral", "mixtral", "mllama", "moshi", "nemotron",
    "olmo", "olmoe", "paligemma", "persimmon", "phi", "phi3", "phimoe", "qwen2", "qwen2_moe",
    "stablelm", "starcoder2", "video_llava", "vipllava", "zamba"})

#: the first release where a type outside the 4.46.3 lists gets the feature (read per type)
CACHE_CLASS_SINCE = {"gpt2": (4, 52)}
KEEP_LOGITS_SINCE = {"gpt2": (4, 53)}

def release(inp: Any) -> Optional[tuple[int, int]]:
    """(major, minor) of the job's transformers when its own modeling code runs and the version
    is stated, else None."""
    if getattr(inp, "model_impl", "transformers") != "transformers":
        return None
    m = re.match(r"\s*(\d+)\.(\d+)", str(getattr(inp, "transformers_version", None) or ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def _model_type(inp: Any) -> str:
    return str(getattr(getattr(inp, "arch", None), "model_type", "") or "")


def legacy_cache(inp: Any) -> Optional[bool]:
    """Whether ``generate`` passes the KV cache as legacy tuples (the previous step's whole cache
    held while the next is built); False for other implementations, None when the version is
    unknown."""
    if getattr(inp, "model_impl", "transformers") != "transformers":
        return False
    ver = release(inp)
    if ver is None:
        return None
    if ver < (4, 42):
        return True
    kind = _model_type(inp)
    if not kind or kind in CACHE_CLASS_4_46:    # (jamba / zamba: their own hybrid caches, no tuples)
        return False
    if kind in CACHE_CLASS_SINCE:
        return ver < CACHE_CLASS_SINCE[kind]
    return ver <= (4, 46)        # read up to 4.46.3; later releases not read per type


def cache_class_release(inp: Any) -> str:
    """The release from which the job's model type gets a ``DynamicCache`` (for a remedy)."""
    since = CACHE_CLASS_SINCE.get(_model_type(inp), (4, 42))
    return f"{since[0]}.{since[1]}"


def keeps_last_logits(inp: Any) -> Optional[bool]:
    """Whether ``generate`` asks the model for the last position's logits only; None when the
    version is unknown (or not transformers' code)."""
    ver = release(inp)
    if ver is None:
        return None
    if ver < (4, 45):
        return False
    kind = _model_type(inp)
    if str(getattr(getattr(inp, "arch", None), "family", "decoder")) != "decoder":
        return True     # encoder-decoder prompts (Whisper's forced ids) not read: the earlier reading
    if kind in KEEP_LOGITS_SINCE:
        return ver >= KEEP_LOGITS_SINCE[kind]
    # later releases not read per type: the earlier reading (last position)
    return kind in KEEP_LOGITS_4_46 or ver > (4, 46) or not kind


def held_logits(inp: Any, logits_bytes: float, elements: float) -> float:
    """Bytes of one step's logits (``elements`` of ``logits_bytes`` each) still referenced while
    the next forward runs (the table in the module docstring)."""
    ver = release(inp)
    if ver is None:
        return 0.0
    if ver < (4, 42):
        return elements * logits_bytes          # ``outputs`` itself, rebound after the forward
    if (4, 45) <= ver < (4, 47) and logits_bytes >= 4:
        return elements * logits_bytes          # the whole clone, through the ``.float()`` view
    return 0.0


def step_clone(inp: Any, logits_bytes: float, elements: float) -> float:
    """Bytes the step's own clone adds beside its logits (4.45 - 4.46: the whole tensor)."""
    ver = release(inp)
    if ver is not None and (4, 45) <= ver < (4, 47):
        return elements * logits_bytes
    return 0.0
