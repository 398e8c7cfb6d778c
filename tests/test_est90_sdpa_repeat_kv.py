"""est90: transformers' SDPA attention of a grouped-query model saves k and v expanded to the query
heads (``repeat_kv``) when an attention mask reaches SDPA (a padded batch) or the release predates
``enable_gqa`` (transformers#39412, 4.54). Pinned to the CPU replay of held-out-43's Qwen2-0.5B LoRA
step (``calibration/est90_lora_step.py`` -> ``calibration/data/est90_lora_step.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms_attention import sdpa_repeats_kv

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "est90_lora_step.json"
QWEN2_05B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 896,
             "intermediate_size": 4864, "num_hidden_layers": 24, "num_attention_heads": 14,
             "num_key_value_heads": 2, "vocab_size": 151936, "max_position_embeddings": 32768,
             "tie_word_embeddings": True, "hidden_act": "silu", "rms_norm_eps": 1e-6}
GIB = 2 ** 30


def _inp(**kw: object) -> EstimateInput:
    cfg = dict(QWEN2_05B)
    cfg.update(kw.pop("cfg", {}))  # type: ignore[arg-type]
    base = dict(arch=from_hf_config(cfg, name="qwen2-0.5b"), mode="train", precision="fp16", micro_batch=2,
                seq_len=256, attention="sdpa", world_size=1, optimizer="adamw", padding="max_length",
                lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05)
    base.update(kw)
    return EstimateInput(**base)  # type: ignore[arg-type]


def _acts(inp: EstimateInput) -> float:
    est = estimate(inp)
    return float(est.phases["backward"]["activations"])


def test_the_replay_keeps_two_query_width_copies_and_not_k_or_v():
    cases = json.loads(DATA.read_text())["cases"]
    tokens, layers, q_dim, kv_dim = 2 * 256, 24, 14 * 64, 2 * 64
    for case in ("lora-r8", "lora-r64"):
        by_op = cases[case]["live_at_peak_by_op_bytes"]
        # repeat_kv's expand + reshape is a clone: k and v at the query heads, 2 bytes each
        assert by_op["clone"] == 2 * q_dim * 2 * tokens * layers
        # the k / v heads themselves are not kept: nothing kv_dim wide apart from the copies
        assert by_op["clone"] != 2 * kv_dim * 2 * tokens * layers
        # the caching allocator adds little over the live bytes (whole blocks, 512 B rounding)
        assert 0 <= cases[case]["allocator_over_live_gib"] < 0.03


def test_estimate_charges_the_copies_in_every_layer():
    on, off = _acts(_inp()), _acts(_inp(padding=None))
    assert on - off == 2 * (14 * 64 - 2 * 64) * 2 * (2 * 256) * 24


def test_estimate_against_the_replay_within_two_percent():
    cases = json.loads(DATA.read_text())["cases"]
    est = estimate(_inp())
    step = sum(v for k, v in est.phases["backward"].items()
               if k not in ("cuda_context", "fragmentation", "cublas_workspace")) / GIB
    replay = cases["lora-r8"]["allocator_max_allocated_gib"]
    assert abs(step - replay) / replay < 0.02


def test_when_the_copies_are_made():
    assert sdpa_repeats_kv(_inp(), _inp().arch)
    # no mask reaches SDPA: unknown padding, one unpadded sample, a dynamic batch of one
    assert not sdpa_repeats_kv(_inp(padding=None), _inp().arch)
    assert not sdpa_repeats_kv(_inp(padding="packed"), _inp().arch)
    assert not sdpa_repeats_kv(_inp(padding="dynamic", micro_batch=1), _inp().arch)
    assert sdpa_repeats_kv(_inp(padding="dynamic", micro_batch=4), _inp().arch)
    # before enable_gqa (transformers 4.54, torch 2.5) every SDPA call expanded them
    assert sdpa_repeats_kv(_inp(padding=None, transformers_version="4.46.0"), _inp().arch)
    assert sdpa_repeats_kv(_inp(padding=None, torch_version="2.4.1"), _inp().arch)
    assert not sdpa_repeats_kv(_inp(padding=None, transformers_version="4.57.3"), _inp().arch)


def test_other_paths_unchanged():
    mha = _inp(cfg={"num_key_value_heads": 14})
    assert not sdpa_repeats_kv(mha, mha.arch)                      # no grouped heads
    flash = _inp(attention="flash", precision="bf16")
    assert not sdpa_repeats_kv(flash, flash.arch)                  # native GQA
    eager = _inp(attention="eager")
    assert not sdpa_repeats_kv(eager, eager.arch)                  # eager: charged as repeated already
    ckpt = _inp(grad_ckpt=True)
    assert not sdpa_repeats_kv(ckpt, ckpt.arch)                    # left out under checkpointing (est90)
    tune = _inp(model_impl="torchtune")
    assert not sdpa_repeats_kv(tune, tune.arch)
