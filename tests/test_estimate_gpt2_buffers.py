"""GPT-2's per-layer causal-mask buffer (``preflight/estimate/buffers.py``): transformers'
``GPT2Attention`` registers ``tril(ones(n_positions, n_positions, dtype=bool))`` as ``bias`` in
every layer up to 5.1 (read in the wheels 4.42.0 .. 5.1.0; gone in 5.2.0): held-out-5's
gpt2-large rows (transformers about 4.42) hold 36 MiB of it, which max_memory_allocated counts.
Recomputed here by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.buffers import model_buffer_bytes
from preflight.estimate.terms import unknown_alternatives

# openai-community/gpt2-large config.json
GPT2_LARGE = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 1280,
              "n_layer": 36, "n_head": 20, "n_positions": 1024, "vocab_size": 50257}


def _arch(**changes):
    return from_hf_config(dict(GPT2_LARGE, **changes), name="gpt2-large")


def _inp(arch, tv):
    return EstimateInput(arch=arch, mode="train", precision="fp16", optimizer="sgd", micro_batch=1,
                         seq_len=128, attention="sdpa", torch_version="2.2.1",
                         transformers_version=tv, loss="logits")


def test_gpt2_before_5_2_keeps_a_bool_mask_of_n_positions_squared_per_layer():
    by_hand = 36 * 1024 * 1024           # 36 layers x tril(ones(1024, 1024)) of 1-byte bools
    assert by_hand == 37_748_736
    for version in ("4.42", "4.57.1", "5.0", "5.1"):
        assert model_buffer_bytes(_inp(_arch(), version), _arch()) == by_hand, version


def test_gone_from_5_2_and_the_mask_follows_the_declared_context():
    assert model_buffer_bytes(_inp(_arch(), "5.2"), _arch()) == 0
    assert model_buffer_bytes(_inp(_arch(), "5.24"), _arch()) == 0
    small = _arch(n_positions=2048, n_layer=2)
    assert model_buffer_bytes(_inp(small, "4.46"), small) == 2 * 2048 * 2048


def test_the_estimate_charges_it_in_every_phase_and_an_unknown_version_widens_the_top():
    est = estimate(_inp(_arch(), "4.42"))
    assert all(terms.get("buffers") == 37_748_736 for terms in est.phases.values())
    later = estimate(_inp(_arch(), "5.2"))
    assert all("buffers" not in terms for terms in later.phases.values())
    alternatives = unknown_alternatives(_inp(_arch(), None))
    assert any(change == {"transformers_version": "5.1"} for change, _why in alternatives)
