"""est63: position tables hand-written models keep on the GPU that the nearest transformers layout lacks
(preflight/estimate/position_tables.py; traced on held-out-29's LLMs-from-scratch rows, in-sample there):
LLMs-from-scratch's Llama3Model / Qwen3Model register one fp32 cos / sin pair of context_length x head_dim,
the book's GPT a learned nn.Embedding(context_length, emb_dim)."""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import InputError

L32 = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048, "num_attention_heads": 32,
       "num_key_value_heads": 8, "intermediate_size": 8192, "num_hidden_layers": 16, "vocab_size": 128256,
       "max_position_embeddings": 131072, "tie_word_embeddings": False, "rope_theta": 500000.0}
GQA_GPT = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 768,
           "num_attention_heads": 24, "num_key_value_heads": 4, "intermediate_size": 2048, "num_hidden_layers": 12,
           "vocab_size": 50257, "max_position_embeddings": 32772, "tie_word_embeddings": False}


def _est(cfg, **kw):
    base = dict(arch=from_hf_config(cfg, name="x"), mode="generate", precision="bf16", micro_batch=1, num_beams=1,
                seq_len=20, max_new_tokens=150, use_cache=False, attention="eager", torch_version="2.6.0")
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_llama32_rope_pair_by_hand():
    # 2 tables x 131,072 positions x 64 (head_dim) x 4 bytes = 64 MiB, in every phase
    est = _est(L32, position_table="rope")
    for phase in est.phases:
        assert est.phases[phase]["buffers"] == 2 * 131072 * 64 * 4 == 64 * 2 ** 20
    assert est.peak_bytes > _est(L32).peak_bytes
    assert any("rope position table" in n for n in est.notes)


def test_learned_table_by_hand():
    # 32,772 x 768 bf16 weights: 48 MiB
    est = _est(GQA_GPT, position_table="learned", seq_len=4, max_new_tokens=32768, use_cache=True)
    assert est.phases["decode"]["buffers"] == 32772 * 768 * 2


@pytest.mark.parametrize("kw", [dict(), dict(position_table="learned", mode="train", optimizer="adamw",
                                                seq_len=64, max_new_tokens=0)])
def test_twins_without_a_table(kw):
    # no table named: nothing; a learned table in training is not this term's (gradients, states)
    est = _est(GQA_GPT, **kw)
    assert all("buffers" not in terms for terms in est.phases.values())


def test_an_unknown_table_is_an_input_error():
    from preflight.estimate.inputs import input_from_plan

    with pytest.raises(InputError):
        input_from_plan(None, {"position_table": "alibi"}, arch=from_hf_config(GQA_GPT, name="x"))
    assert input_from_plan(None, {"position_table": "rope"}, arch=from_hf_config(GQA_GPT, name="x")).position_table \
        == "rope"
