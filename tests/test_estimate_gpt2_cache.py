"""The cache a GPT-2 training step returns (``held_outputs.returned_cache``), recomputed by hand:
before transformers 4.52 ``present = (key, value)`` are views of the fused ``c_attn`` output, so
the cache keeps 3 x hidden per token and layer (not 2). Before 4.48 SDPA receives those views
and saves that storage itself (nothing extra this step); eager attention (and SDPA from 4.48,
which gets ``.contiguous()`` copies) saves copies, so the whole c_attn output is extra."""

from __future__ import annotations

from preflight.estimate import EstimateInput
from preflight.estimate.arch import from_hf_config
from preflight.estimate.held_outputs import held_outputs, returned_cache

GPT2_LARGE = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 1280,
              "n_layer": 36, "n_head": 20, "n_positions": 1024, "vocab_size": 50257}
TOKENS = 4 * 256


def _inp(attention: str, tv: str) -> EstimateInput:
    return EstimateInput(arch=from_hf_config(GPT2_LARGE, name="gpt2-large"), mode="train",
                         precision="fp16", optimizer="sgd", micro_batch=4, seq_len=256,
                         attention=attention, torch_version="2.2.1", transformers_version=tv,
                         loss="logits", keeps_outputs=True)


def test_the_cache_is_the_whole_c_attn_output_before_4_52():
    c_attn = 3 * 1280 * 2 * TOKENS * 36                  # fp16, 36 layers: 283.1 MB
    assert c_attn == 283_115_520
    sdpa = _inp("sdpa", "4.42")
    assert returned_cache(sdpa, sdpa.arch, 2, TOKENS) == (c_attn, 0.0)
    eager = _inp("eager", "4.42")
    assert returned_cache(eager, eager.arch, 2, TOKENS) == (c_attn, c_attn)
    copies = _inp("sdpa", "4.48")
    assert returned_cache(copies, copies.arch, 2, TOKENS) == (c_attn, c_attn)


def test_from_4_52_and_other_models_key_and_value_only():
    later = _inp("sdpa", "4.52")
    assert returned_cache(later, later.arch, 2, TOKENS) == (2 * 1280 * 2 * TOKENS * 36, 0.0)


def test_the_forward_end_holds_the_previous_cache_and_this_steps_unsaved_part():
    eager = _inp("eager", "4.42")
    c_attn = 3 * 1280 * 2 * TOKENS * 36
    held = held_outputs(eager, eager.arch, 2, TOKENS, logits_held=100.0)
    assert held == {"forward": 100.0 + 2 * c_attn, "backward_start": c_attn,
                    "backward_end": 100.0 + c_attn}
