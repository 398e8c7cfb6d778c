"""est35: quantized frozen base weights and freed text encoders / VAE in diffusion training."""

from __future__ import annotations

import pytest

from preflight import architectures
from preflight.estimate import EstimateInput, estimate
from preflight.estimate.inputs import InputError


def _job(name: str, **kw):
    base = dict(arch=architectures.lookup(name), mode="train", precision="amp-bf16", optimizer="adamw",
                micro_batch=1, image_size=512, grad_ckpt=True, attention="sdpa", lora_r=4)
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_nf4_base_is_packed_codes_plus_fp32_absmax_and_one_dequantized_layer():
    n = architectures.lookup("flux-dev").params_total
    est = _job("flux-dev", quant="4bit")
    step = est.phases["optimizer_step"]
    blocks = -(-n // 64)  # bitsandbytes blocksize 64, one fp32 absmax each
    assert step["denoiser_weights"] == n // 2 + 4 * blocks
    d = 24 * 128  # FLUX.1-dev: 24 heads x 128; AdaLayerNormZero Linear(d, 6d) in bf16
    assert step["dequantized_layer"] == 2 * 6 * d * d
    plain = _job("flux-dev")
    # the bf16 base (2 bytes/weight) shrinks to ~0.56 bytes/weight
    saved = plain.peak_bytes - est.peak_bytes
    assert 1.4 * n < saved < 1.5 * n
    assert any("4bit" in note for note in est.notes)


def test_double_quant_and_int8_bytes():
    n = architectures.lookup("flux-dev").params_total
    blocks = -(-n // 64)
    dq = _job("flux-dev", quant="4bit", double_quant=True).phases["optimizer_step"]["denoiser_weights"]
    assert dq == n // 2 + blocks + 4 * -(-blocks // 256)
    int8 = _job("flux-dev", quant="8bit").phases["optimizer_step"]["denoiser_weights"]
    assert int8 == n + 4 * (n // 3072)  # one byte per weight + an fp32 scale per output row


def test_full_training_ignores_quant_of_the_trained_weights():
    full = _job("sd15", lora_r=None, quant="4bit")
    assert "dequantized_layer" not in full.breakdown
    assert full.phases["optimizer_step"]["denoiser_weights"] == 4 * architectures.lookup("sd15").params_total


def test_cached_embeddings_and_latents_free_the_encoders_and_the_vae():
    arch = architectures.lookup("sdxl")
    text = sum(e["params"] for e in arch.extra["text_encoders"])
    plain = _job("sdxl")
    cached = _job("sdxl", cache_text_embeddings=True, cache_latents=True)
    assert "text_encoders" not in cached.breakdown and "vae" not in cached.breakdown
    assert "vae_encode" not in cached.phases and "vae_encode" in plain.phases
    step_plain, step_cached = plain.phases["optimizer_step"], cached.phases["optimizer_step"]
    freed = 2 * (text + int(arch.extra["vae_params"]))
    assert sum(step_plain.values()) - sum(step_cached.values()) == freed
    only_text = _job("sdxl", cache_text_embeddings=True)
    assert "vae" in only_text.breakdown and "text_encoders" not in only_text.breakdown


@pytest.mark.parametrize("kw", [dict(cache_latents="yes"), dict(cache_text_embeddings=1), dict(quant="3bit")])
def test_bad_flags_raise_input_error(kw):
    with pytest.raises(InputError):
        _job("sd15", **kw)


def test_cli_cache_flags_drop_the_encoders_and_vae():
    import subprocess
    import sys

    def run(*extra):
        out = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "sdxl", "--image-size",
                              "1024", "--grad-ckpt", "--lora-r", "4", "--quant", "4bit", *extra],
                             capture_output=True, text=True, timeout=120)
        assert "Traceback" not in out.stderr
        return out.stdout
    plain, cached = run(), run("--cache-text-embeddings", "--cache-latents")
    assert "text_encoders" in plain and "text_encoders" not in cached
    assert "dequantized_layer" in cached


def test_dit_under_autocast_checkpoints_an_fp32_residual_stream():
    amp = _job("dit-xl-2", lora_r=None, precision="amp-fp16", micro_batch=128, image_size=256)
    fp32 = _job("dit-xl-2", lora_r=None, precision="fp32", micro_batch=128, image_size=256)
    block_inputs = 28 * 128 * 256 * 1152 * 4  # 28 blocks x (128, 256 patch tokens, 1152) fp32
    for est in (amp, fp32):
        assert est.phases["forward_end"]["activations"] > block_inputs
    # the only difference left in the saved tensors is the final layer's dtype
    diff = fp32.phases["forward_end"]["activations"] - amp.phases["forward_end"]["activations"]
    assert 0 <= diff < 0.05 * block_inputs


def test_textual_inversion_trains_the_token_table_only():
    arch = architectures.lookup("stabilityai/stable-diffusion-2-1-base")
    text = sum(e["params"] for e in arch.extra["text_encoders"])
    table = (49408 + 1) * 1024  # OpenCLIP-H text: vocab + the placeholder row, width 1024
    ti = _job("stabilityai/stable-diffusion-2-1-base", lora_r=None, textual_inversion=True,
              precision="amp-fp16")
    full = _job("stabilityai/stable-diffusion-2-1-base", lora_r=None, precision="amp-fp16")
    step = ti.phases["optimizer_step"]
    assert ti.params_trainable == table
    assert step["optimizer_states"] == 8 * table and step["gradients"] == 4 * table
    assert step["lora_weights"] == 4 * table and step["text_encoders"] == 4 * (text - table)
    assert step["denoiser_weights"] == 2 * arch.params_total  # the UNet cast to fp16, frozen
    assert ti.peak_bytes < full.peak_bytes / 2
    assert any("textual inversion" in note for note in ti.notes)
