"""est36: the VAE encode's live feature maps, the VAE's dtype and torch 2.0's foreach AdamW in
diffusion training (preflight/estimate/vae_encode.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from preflight import architectures
from preflight.estimate import EstimateInput, estimate
from preflight.estimate.diffusion import from_pipeline
from preflight.estimate.inputs import InputError

ROOT = Path(__file__).resolve().parents[1]


def _dit(**kw):
    base = dict(arch=architectures.lookup("facebook/DiT-XL-2-256"), mode="train", precision="fp32",
                optimizer="adamw", micro_batch=128, image_size=256, grad_ckpt=True, attention="sdpa", ema=True)
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_encode_holds_five_full_resolution_maps_of_the_first_block():
    # diffusers Encoder: conv_in's output (held by Encoder.forward), the second resnet's input,
    # conv2's output, (input + h) and its quotient by output_scale_factor: 5 maps of
    # block_out_channels[0] = 128 channels at 256 x 256, fp32 (4 bytes), batch 128
    est = _dit()
    by_hand = 5 * 128 * 128 * 256 * 256 * 4
    assert by_hand == 20 * 2**30
    assert est.phases["vae_encode"]["vae_activations"] == by_hand
    # fast-DiT's fp32 row (every fact said): the encode is the step's peak
    assert est.phase == "vae_encode"


def test_one_resnet_per_block_holds_four_maps():
    arch = architectures.lookup("facebook/DiT-XL-2-256")
    den = arch.extra["denoiser"]
    vae = {"block_out_channels": [64, 128], "layers_per_block": 1, "latent_channels": 4}
    small = from_pipeline({"denoiser": den, "vae": vae}, name="dit-small-vae")
    assert small.extra["vae_layers_per_block"] == 1
    est = _dit(arch=small, micro_batch=2, image_size=64)
    assert est.phases["vae_encode"]["vae_activations"] == 4 * 2 * 64 * 64 * 64 * 4
    # a config without layers_per_block: 2, as every published SD/SDXL/SD3/FLUX/DiT VAE states
    assert from_pipeline({"denoiser": den, "vae": {"block_out_channels": [64]}},
                         name="x").extra["vae_layers_per_block"] == 2


def test_vae_dtype_sets_the_weights_and_the_maps():
    n_vae = int(architectures.lookup("facebook/DiT-XL-2-256").extra["vae_params"])
    amp = _dit(precision="amp-fp16")  # the diffusers examples' weight_dtype: 16-bit VAE
    amp32 = _dit(precision="amp-fp16", vae_dtype="fp32")  # fast-DiT: never cast, fp32
    maps = 5 * 128 * 128 * 256 * 256
    assert amp.phases["vae_encode"]["vae_activations"] == 2 * maps
    assert amp32.phases["vae_encode"]["vae_activations"] == 4 * maps
    assert amp.breakdown["vae"] == 2 * n_vae and amp32.breakdown["vae"] == 4 * n_vae
    fp32_16 = _dit(vae_dtype="16bit")
    assert fp32_16.phases["vae_encode"]["vae_activations"] == 2 * maps


def test_unknown_vae_dtype_is_an_input_error():
    with pytest.raises(InputError, match="VAE dtype"):
        _dit(vae_dtype="int8")


def test_torch_2_0_foreach_adamw_holds_two_lists_in_a_full_diffusion_step():
    trained = _dit().params_trainable
    for version, lists in (("2.0.1", 2), ("2.1.0", 1), (None, 1), ("1.13.1", 1)):
        step = _dit(cache_latents=True, torch_version=version).phases["optimizer_step"]
        assert step["optimizer_temporaries"] == lists * 4 * trained, version
    # LoRA steps charge no foreach temporaries in this model, whatever the version
    lora = _dit(lora_r=4, torch_version="2.0.1").phases["optimizer_step"]
    assert "optimizer_temporaries" not in lora


def test_cli_vae_dtype_flag():
    def run(*extra):
        out = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "facebook/DiT-XL-2-256",
                              "--image-size", "256", "--batch-size", "128", "--grad-ckpt", "--precision",
                              "amp-fp16", "--format", "json", *extra],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert "Traceback" not in out.stderr
        return out
    plain, fp32 = run(), run("--vae-dtype", "fp32")
    assert plain.returncode in (0, 1) and fp32.returncode in (0, 1)
    assert '"vae_activations"' in fp32.stdout
    import json
    peak = [json.loads(o.stdout)["peak_bytes"] for o in (plain, fp32)]
    assert peak[1] - peak[0] == 5 * 128 * 128 * 256 * 256 * 2 + 2 * int(
        architectures.lookup("facebook/DiT-XL-2-256").extra["vae_params"])
    bad = run("--vae-dtype", "int8")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_scorer_reads_torch_from_a_rows_versions():
    sys.path.insert(0, str(ROOT / "calibration" / "public"))
    try:
        from build_diffusion_measured import _torch_version
    finally:
        sys.path.pop(0)
    assert _torch_version("2023-05 (torch 2.x, timm)") == "2.0"
    assert _torch_version("2024-06 (torch 2.x)") is None  # 2.1 or later: not said
    assert _torch_version("diffusers ~0.29 (2024-06, not stated)") is None
    assert _torch_version("torch 2.3.1") == "2.3"


def test_zero_grad_after_the_forward_keeps_last_steps_gradients_through_the_encode():
    # fast-DiT: encode, loss, opt.zero_grad(), backward, step: the previous step's fp32
    # gradients (set_to_none frees them only at zero_grad) sit beside the encode and the forward
    plain, late = _dit(), _dit(zero_grad_after_forward=True)
    trained = plain.params_trainable
    for phase in ("vae_encode", "forward_end"):
        assert "previous_gradients" not in plain.phases[phase]
        assert late.phases[phase]["previous_gradients"] == 4 * trained
    assert late.phases["backward"] == plain.phases["backward"]
    assert late.peak_bytes - plain.peak_bytes == 4 * trained  # the encode stays the peak
    # ZeRO keeps its own gradient partitions: the order of zero_grad decides nothing there
    assert "previous_gradients" not in _dit(zero_grad_after_forward=True, zero_stage=2).phases["vae_encode"]


def test_ddp_on_more_than_one_gpu_adds_a_bucket_copy_of_every_fp32_gradient():
    one, two = _dit(cache_latents=True), _dit(cache_latents=True, world_size=2)
    trained = one.params_trainable
    for phase in ("forward_end", "backward", "optimizer_step"):
        assert "ddp_buckets" not in one.phases[phase]
        assert two.phases[phase]["ddp_buckets"] == 4 * trained  # Reducer buckets, allocated at wrap time
    view = _dit(cache_latents=True, world_size=2, ddp_bucket_view=True)
    assert view.phases["optimizer_step"]["ddp_buckets"] == 25 * 2**20  # gradients are bucket views
    # LoRA: the buckets hold the fp32 adapters' gradients only
    lora = _dit(cache_latents=True, world_size=4, lora_r=4)
    assert lora.phases["optimizer_step"]["ddp_buckets"] == 4 * lora.params_trainable
    assert "ddp_buckets" not in _dit(cache_latents=True, world_size=2, zero_stage=2).phases["optimizer_step"]
