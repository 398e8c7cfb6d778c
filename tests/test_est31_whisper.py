"""Whisper fine-tunes (held-out-16): transformers before 4.36 (or torch before 2.1.1) runs eager
attention, and a fixed-length encoder's transients are not part of the cache of other
sequence lengths under dynamic padding."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.length_cache import fixed_length_encoder
from preflight.estimate.terms import attention_kernel

WHISPER = dict(mode="train", model="Whisper-large-v2", precision="amp-fp16", optimizer="adamw",
               micro_batch=2, seq_len=1500, target_len=64, lora_r=32,
               lora_targets=["q_proj", "v_proj"], grad_ckpt=False)


def _inp(**over):
    setup = dict(WHISPER)
    setup.update(over)
    inp, unknown = pa.estimate_input(setup)
    assert unknown == []
    return inp


@pytest.mark.parametrize("transformers,torch,kernel", [
    ("4.34.0", "2.0.1", "eager"),     # no SDPA path in transformers before 4.36
    ("4.29.2", "2.3.0", "eager"),
    ("4.36.0", "2.1.0", "eager"),     # SDPA by default only from torch 2.1.1
    ("4.36.0", "2.1.1", "sdpa"),
    ("4.44.0", "2.4.0", "sdpa"),
    (None, None, "sdpa"),             # unknown versions: the current default
])
def test_default_attention_follows_the_versions(transformers, torch, kernel):
    over = {k: v for k, v in (("transformers_version", transformers), ("torch_version", torch)) if v}
    assert attention_kernel(_inp(**over)) == kernel


def test_an_attention_the_job_chose_is_kept():
    inp = _inp(transformers_version="4.34.0", torch_version="2.0.1", attention="sdpa")
    assert attention_kernel(inp) == "sdpa"
    inp = _inp(transformers_version="4.34.0", model_impl="litgpt")
    assert attention_kernel(inp) == "sdpa"


def test_old_versions_estimate_as_explicit_eager():
    # the 4.34 job is charged exactly what the same job with attn_implementation="eager" is
    old = estimate(_inp(transformers_version="4.34.0", torch_version="2.0.1"))
    eager = estimate(_inp(transformers_version="4.34.0", torch_version="2.0.1", attention="eager"))
    sdpa = estimate(_inp(transformers_version="4.44.0", torch_version="2.4.0"))
    assert old.phases["forward"]["activations"] == eager.phases["forward"]["activations"]
    # 32 encoder layers x 2 clips x 20 heads x 1500^2 probabilities of >= 4 bytes each
    assert (old.phases["forward"]["activations"] - sdpa.phases["forward"]["activations"]
            >= 32 * 2 * 20 * 1500 ** 2 * 4)
    assert any("eager attention" in n for n in old.notes)


def test_whisper_encoder_has_one_length():
    assert fixed_length_encoder(pa.architecture(WHISPER))
    assert not fixed_length_encoder(pa.architecture(dict(WHISPER, model="T5-base")))


def _length_cache(encoder_layers):
    config, name = pa._config(WHISPER)
    config["encoder_layers"] = encoder_layers
    setup = dict(WHISPER, hf_config=config, model_name=name, padding="dynamic", grad_ckpt=True,
                 micro_batch=8, transformers_version="4.29.2", torch_version="2.0.1")
    inp, _ = pa.estimate_input(setup)
    est = estimate(inp)
    return est.phases["backward"].get("length_cache", 0.0), est


def test_length_cache_leaves_the_fixed_length_encoder_out():
    # dynamic padding varies only the decoder's labels: the cache of other lengths is the same
    # whatever the encoder's depth, and smaller than the encoder layer's own transient
    deep, est = _length_cache(32)
    shallow, _ = _length_cache(2)
    assert deep > 0
    assert deep == pytest.approx(shallow, rel=1e-9)
    backward = est.phases["backward"]
    assert deep < backward["activation_recompute"] + backward["backward_transient"]


def test_upgrade_is_offered_only_when_the_versions_leave_sdpa_off():
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import remediate

    gpu = hardware.find("A100-SXM4-80GB")
    old = _inp(transformers_version="4.34.0", torch_version="2.0.1", micro_batch=4)
    upgrade = [r for r in remediate(old, gpu) if r.changes and "4.36" in r.description]
    assert len(upgrade) == 1
    new = estimate(_inp(transformers_version="4.36.0", torch_version="2.1.1", micro_batch=4))
    assert upgrade[0].new_peak_bytes == new.peak_bytes
    assert upgrade[0].saved_bytes == estimate(old).peak_bytes - new.peak_bytes
    current = _inp(transformers_version="4.44.0", torch_version="2.4.0", micro_batch=4)
    assert not [r for r in remediate(current, gpu) if "4.36" in r.description]
