"""Mistral's per-layer rotary tables in transformers 4.34-4.41 (``preflight/estimate/rotary_tables.py``;
est49 read 4.34-4.36 for held-out-23's Mistral-7B rows, est50 the releases up to 4.42): ``cos_cached`` and ``sin_cached`` of every attention
layer, ``max_position_embeddings x head_dim`` in the load dtype, recomputed by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.buffers import model_buffer_bytes

MISTRAL_7B = {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
              "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
              "vocab_size": 32000, "max_position_embeddings": 32768, "sliding_window": 4096,
              "tie_word_embeddings": False}
ARCH = from_hf_config(MISTRAL_7B, name="m")


def _inp(tv, **kw):
    base = dict(arch=ARCH, mode="generate", precision="fp16", micro_batch=1, seq_len=12,
                max_new_tokens=512, attention="flash", transformers_version=tv)
    base.update(kw)
    return EstimateInput(**base)


def test_4_34_to_4_36_keep_two_fp16_tables_per_layer():
    tables = 32 * 2 * 32768 * 128 * 2          # layers x (cos, sin) x positions x head_dim x fp16
    assert tables == 536_870_912
    for tv in ("4.34.0", "4.35.2", "4.36.0"):
        assert model_buffer_bytes(_inp(tv), ARCH) == tables
    est = estimate(_inp("4.34.0"))
    # alive in every phase of the job, like the weights
    assert all(p.get("buffers") == tables for p in est.phases.values())
    assert any("rotary-table buffers, 537 MB" in n for n in est.notes)


def test_an_fp32_model_keeps_fp32_tables():
    assert model_buffer_bytes(_inp("4.34.0", precision="fp32"), ARCH) == 32 * 2 * 32768 * 128 * 4


def test_4_37_to_4_41_keep_them_4_42_on_and_other_models_count_none():
    for tv in ("4.37.0", "4.39.3", "4.41.2"):
        assert model_buffer_bytes(_inp(tv), ARCH) == 32 * 2 * 32768 * 128 * 2
    assert model_buffer_bytes(_inp("4.42.0"), ARCH) == 0
    assert model_buffer_bytes(_inp("4.48.1"), ARCH) == 0
    assert model_buffer_bytes(_inp(None), ARCH) == 0
    assert model_buffer_bytes(_inp("4.34.0", model_impl="litgpt"), ARCH) == 0
    gemma = from_hf_config(dict(MISTRAL_7B, model_type="gemma", head_dim=128), name="g")
    assert model_buffer_bytes(_inp("4.38.2", arch=gemma), gemma) == 0
