"""Context-sized module buffers (``preflight/estimate/buffers.py``): GPT-NeoX's per-layer
causal mask (transformers < 4.49) and fp32 rotary tables (< 4.45), recomputed by hand and
checked against the counts that ``calibration/buffers.py`` took from the wheels' own modules
(``calibration/data/gpt_neox_buffers.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.buffers import model_buffer_bytes

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "gpt_neox_buffers.json"

# EleutherAI/pythia-410m-deduped config.json
PYTHIA_410M = {
    "architectures": ["GPTNeoXForCausalLM"], "hidden_act": "gelu", "hidden_size": 1024,
    "intermediate_size": 4096, "max_position_embeddings": 2048, "model_type": "gpt_neox",
    "num_attention_heads": 16, "num_hidden_layers": 24, "rotary_emb_base": 10000,
    "rotary_pct": 0.25, "tie_word_embeddings": False, "use_parallel_residual": True,
    "vocab_size": 50304,
}


def _pythia(**changes):
    return from_hf_config(dict(PYTHIA_410M, **changes), name="pythia-410m-deduped")


def _inp(arch, tv, **kw):
    base = dict(arch=arch, mode="train", precision="fp16", optimizer="sgd", micro_batch=1,
                seq_len=128, attention="sdpa", torch_version="2.2.1", transformers_version=tv,
                loss="logits")
    base.update(kw)
    return EstimateInput(**base)


def test_gpt_neox_before_4_45_keeps_a_mask_and_fp32_rotary_tables_per_layer():
    layers, max_pos, rotary_ndims = 24, 2048, int(64 * 0.25)
    mask = layers * max_pos * max_pos                      # bool tril(ones(2048, 2048)) per layer
    rotary = layers * 2 * max_pos * rotary_ndims * 4       # cos_cached + sin_cached, fp32
    assert mask == 100_663_296 and rotary == 6_291_456
    assert model_buffer_bytes(_inp(_pythia(), "4.42"), _pythia()) == mask + rotary
    assert model_buffer_bytes(_inp(_pythia(), "4.44.2"), _pythia()) == mask + rotary


def test_4_45_to_4_48_keep_only_the_mask_and_4_49_neither():
    assert model_buffer_bytes(_inp(_pythia(), "4.45"), _pythia()) == 24 * 2048 * 2048
    assert model_buffer_bytes(_inp(_pythia(), "4.48.1"), _pythia()) == 24 * 2048 * 2048
    assert model_buffer_bytes(_inp(_pythia(), "4.49"), _pythia()) == 0
    assert model_buffer_bytes(_inp(_pythia(), None), _pythia()) == 0


def test_the_mask_grows_with_the_context_the_config_declares():
    arch = _pythia(max_position_embeddings=4096, num_hidden_layers=2)
    assert model_buffer_bytes(_inp(arch, "4.46"), arch) == 2 * 4096 * 4096


def test_the_counts_match_what_the_wheels_modules_register():
    rows = {r["transformers"]: r for r in json.loads(DATA.read_text(encoding="utf-8"))["rows"]}
    for version, row in rows.items():
        ours = model_buffer_bytes(_inp(_pythia(), version), _pythia())
        # what the term leaves out: inv_freq (fp32, head_dim*pct/2 per layer) and a scalar
        assert 0 <= row["total_bytes"] - ours <= 24 * (8 * 4 + 2) + 32, version


def test_other_models_and_implementations_have_no_such_term():
    llama = from_hf_config({"model_type": "llama", "hidden_size": 512, "intermediate_size": 1024,
                            "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 1000,
                            "max_position_embeddings": 4096}, name="tiny-llama")
    assert model_buffer_bytes(_inp(llama, "4.42"), llama) == 0
    assert model_buffer_bytes(_inp(_pythia(), "4.42", model_impl="litgpt"), _pythia()) == 0


def test_the_estimate_charges_the_buffers_in_every_phase_and_says_so():
    old = estimate(_inp(_pythia(), "4.42"))
    new = estimate(_inp(_pythia(), "4.49"))
    assert old.tensor_peak()[0] - new.tensor_peak()[0] == 100_663_296 + 6_291_456
    assert all(terms.get("buffers") == 106_954_752 for terms in old.phases.values())
    assert any("causal-mask" in n for n in old.notes)


def test_an_unknown_version_widens_the_interval_to_the_older_layout():
    unknown = estimate(_inp(_pythia(), None))
    latest = estimate(_inp(_pythia(), "4.49"))
    assert unknown.peak_bytes == latest.peak_bytes
    assert unknown.interval_bytes[1] > latest.interval_bytes[1]
