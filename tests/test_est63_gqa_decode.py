"""est63: decoding with a KV cache under eager grouped-query attention expands one layer's cached keys
and values to every query head (transformers' ``repeat_kv``; LLMs-from-scratch ``gpt_with_kv_gqa.py``:
``keys.repeat_interleave(self.group_size, dim=1)``). Traced on held-out-29's GQA row (in-sample there)."""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

# the book's GPT with 24 heads of 32 in 4 key-value groups, 12 layers (held-out-29's GQA row)
CFG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 768,
       "num_attention_heads": 24, "num_key_value_heads": 4, "intermediate_size": 2048, "num_hidden_layers": 12,
       "vocab_size": 50257, "max_position_embeddings": 32772, "tie_word_embeddings": False}


def _decode(cfg=CFG, **kw):
    base = dict(arch=from_hf_config(cfg, name="gqa-gpt"), mode="generate", precision="bf16", micro_batch=1,
                num_beams=1, seq_len=4, max_new_tokens=32768, use_cache=True, attention="eager",
                torch_version="2.6.0", world_size=1)
    base.update(kw)
    return estimate(EstimateInput(**base)).phases["decode"]


def test_the_expanded_cache_of_one_layer_by_hand():
    # the last decoding step reads 4 + 32,768 - 2 cached positions; keys and values of 24 heads x 32 in bf16
    expanded = 2 * (4 + 32768 - 2) * 24 * 32 * 2
    # the one-layer torch.cat copy of the grouped cache (4 heads) is smaller: the expansion is the transient
    cat_copy = 2 * (4 + 32768 - 2) * 4 * 32 * 2
    assert expanded == 100_669_440 and cat_copy < expanded
    assert _decode()["prefill_transient"] == expanded


@pytest.mark.parametrize("kw", [dict(attention="sdpa"), dict(attention="flash"), dict(max_new_tokens=1)])
def test_twins_without_the_expansion(kw):
    # SDPA (enable_gqa by release) and flash (native GQA) are not charged; no cache, no decoding step: nothing
    got = _decode(**kw).get("prefill_transient", 0)
    assert got <= 2 * (4 + 32768 - 2) * 4 * 32 * 2


def test_without_a_cache_nothing_is_expanded():
    # est68: use_cache=False re-runs the whole sequence each step (inference.nocache_phases): no cache to
    # expand, and the step's transient does not depend on the key-value heads
    nocache = _decode(use_cache=False, max_new_tokens=64)
    assert "kv_cache" not in nocache
    assert nocache["prefill_transient"] == _decode(dict(CFG, num_key_value_heads=24), use_cache=False,
                                                   max_new_tokens=64)["prefill_transient"]


def test_multi_head_attention_expands_nothing():
    mha = dict(CFG, num_key_value_heads=24)
    # kv_heads == heads: only the one-layer cat copy of the (already full) cache
    assert _decode(mha)["prefill_transient"] == 2 * (4 + 32768 - 2) * 24 * 32 * 2
    # and the GQA model's transient equals it: the expansion restores the MHA-sized copy
    assert _decode()["prefill_transient"] == _decode(mha)["prefill_transient"]
