"""Diffusion pipelines: exact parameter counts from diffusers configs and the training estimate.

The configs below are written here from the public Hub files they cite (keys equal to
diffusers' defaults omitted, as the Hub files do); the totals are what diffusers'
``sum(p.numel() for p in model.parameters())`` gives for those repos' modules.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from preflight import architectures
from preflight.estimate import EstimateInput, estimate
from preflight.estimate.diffusion import (
    DiffusionError,
    count_denoiser,
    count_text_encoder,
    count_vae,
    from_model_index,
)

# https://huggingface.co/stable-diffusion-v1-5/stable-diffusion-v1-5/blob/main/unet/config.json
SD15_UNET = {"_class_name": "UNet2DConditionModel", "attention_head_dim": 8,
             "block_out_channels": [320, 640, 1280, 1280], "cross_attention_dim": 768,
             "down_block_types": ["CrossAttnDownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D",
                                  "DownBlock2D"],
             "up_block_types": ["UpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D"],
             "in_channels": 4, "out_channels": 4, "layers_per_block": 2, "sample_size": 64}
# https://huggingface.co/stabilityai/stable-diffusion-xl-base-1.0/blob/main/unet/config.json
SDXL_UNET = {"_class_name": "UNet2DConditionModel", "addition_embed_type": "text_time",
             "addition_time_embed_dim": 256, "attention_head_dim": [5, 10, 20],
             "block_out_channels": [320, 640, 1280], "cross_attention_dim": 2048,
             "down_block_types": ["DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"],
             "up_block_types": ["CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"],
             "projection_class_embeddings_input_dim": 2816, "sample_size": 128,
             "transformer_layers_per_block": [1, 2, 10], "use_linear_projection": True}
# https://huggingface.co/black-forest-labs/FLUX.1-dev/blob/main/transformer/config.json
FLUX_DEV = {"_class_name": "FluxTransformer2DModel", "attention_head_dim": 128, "guidance_embeds": True,
            "in_channels": 64, "joint_attention_dim": 4096, "num_attention_heads": 24, "num_layers": 19,
            "num_single_layers": 38, "patch_size": 1, "pooled_projection_dim": 768}
# https://huggingface.co/stable-diffusion-v1-5/stable-diffusion-v1-5/blob/main/vae/config.json
SD_VAE = {"_class_name": "AutoencoderKL", "block_out_channels": [128, 256, 512, 512], "latent_channels": 4,
          "layers_per_block": 2}
# .../text_encoder/config.json (CLIP ViT-L/14 text) and SDXL's text_encoder_2 (OpenCLIP bigG)
CLIP_L = {"model_type": "clip_text_model", "architectures": ["CLIPTextModel"], "hidden_size": 768,
          "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12}
CLIP_G = {"model_type": "clip_text_model", "architectures": ["CLIPTextModelWithProjection"],
          "hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32, "projection_dim": 1280}
T5_XXL = {"model_type": "t5", "d_model": 4096, "d_ff": 10240, "d_kv": 64, "num_heads": 64, "num_layers": 24,
          "feed_forward_proj": "gated-gelu"}


def test_unet_counts_are_exact():
    assert count_denoiser(SD15_UNET) == 859_520_964
    assert count_denoiser(SDXL_UNET) == 2_567_463_684


def test_flux_and_other_denoisers():
    assert count_denoiser(FLUX_DEV) == 11_901_408_320
    schnell = dict(FLUX_DEV, guidance_embeds=False)  # no guidance embedder: 2 fewer 3072-wide linears
    assert count_denoiser(FLUX_DEV) - count_denoiser(schnell) == 256 * 3072 + 3072 + 3072 * 3072 + 3072


def test_vae_and_text_encoders():
    assert count_vae(SD_VAE) == 83_653_863
    assert count_text_encoder(CLIP_L) == 123_060_480
    assert count_text_encoder(CLIP_G) == 694_659_840
    assert count_text_encoder(T5_XXL) == 4_762_310_656


@pytest.mark.parametrize("name, total", [
    ("runwayml/stable-diffusion-v1-5", 859_520_964),
    ("stabilityai/stable-diffusion-xl-base-1.0", 2_567_463_684),
    ("black-forest-labs/FLUX.1-dev", 11_901_408_320),
    ("stabilityai/stable-diffusion-3-medium-diffusers", 2_028_328_000),
    ("facebook/DiT-XL-2-256", 749_826_464),
])
def test_catalog_finds_pipelines_by_hub_id(name, total):
    arch = architectures.lookup(name)
    assert arch is not None and arch.family == "diffusion"
    assert arch.params_total == total


def test_catalog_entry_matches_its_published_total():
    for entry in architectures.diffusion_entries():
        if entry.get("published_params"):
            assert count_denoiser(entry["pipeline"]["denoiser"]) == entry["published_params"], entry["name"]
    # the transformers catalog listing does not mix the pipelines in
    assert all("config" in e for e in architectures.entries())


def test_model_index_pipeline():
    index = {"_class_name": "StableDiffusionXLPipeline", "unet": ["diffusers", "UNet2DConditionModel"],
             "vae": ["diffusers", "AutoencoderKL"], "text_encoder": ["transformers", "CLIPTextModel"],
             "text_encoder_2": ["transformers", "CLIPTextModelWithProjection"]}
    arch = from_model_index(index, {"unet": SDXL_UNET, "vae": SD_VAE, "text_encoder": CLIP_L,
                                    "text_encoder_2": CLIP_G}, name="my/sdxl")
    assert arch.params_total == 2_567_463_684
    assert arch.image_size == 1024  # sample_size 128 latents x 8
    assert sum(e["params"] for e in arch.extra["text_encoders"]) == 123_060_480 + 694_659_840
    with pytest.raises(DiffusionError):
        from_model_index({"vae": []}, {}, name="x")


@pytest.mark.parametrize("bad", [
    dict(SD15_UNET, down_block_types=["SimpleCrossAttnDownBlock2D"] * 4),
    dict(SD15_UNET, block_out_channels="320"),
    dict(SD15_UNET, layers_per_block=-1),
    dict(SD15_UNET, attention_head_dim=[8, 8]),
    {"_class_name": "UNet3DConditionModel"},
    {},
])
def test_bad_configs_raise_a_readable_error(bad):
    with pytest.raises(DiffusionError):
        count_denoiser(bad)


def _job(name, **kw):
    base = dict(arch=architectures.lookup(name), mode="train", precision="amp-bf16", optimizer="adamw",
                micro_batch=1)
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_full_training_terms():
    sdxl = architectures.lookup("sdxl")
    est = _job("sdxl")
    n = sdxl.params_total
    step = est.phases["optimizer_step"]
    assert step["denoiser_weights"] == 4 * n and step["optimizer_states"] == 8 * n and step["gradients"] == 4 * n
    # the frozen text encoders and VAE in bf16
    assert step["text_encoders"] == 2 * (123_060_480 + 694_659_840)
    assert step["vae"] == 2 * 83_653_863


def test_ema_adds_one_fp32_copy_and_8bit_adam_shrinks_states():
    n = architectures.lookup("sd15").params_total
    plain, ema = _job("sd15"), _job("sd15", ema=True)
    assert ema.peak_bytes - plain.peak_bytes == 4 * n
    small = _job("sd15", optimizer="adamw-8bit")
    assert small.phases["optimizer_step"]["optimizer_states"] < 2.1 * n


def test_checkpointing_lora_and_resolution_move_the_peak():
    full = _job("sdxl")
    ckpt = _job("sdxl", grad_ckpt=True)
    lora = _job("sdxl", lora_r=4, grad_ckpt=True)
    assert ckpt.phases["forward_end"]["activations"] < full.phases["forward_end"]["activations"] / 4
    assert lora.peak_bytes < ckpt.peak_bytes / 2
    low, high = _job("sd15", image_size=256, lora_r=4), _job("sd15", image_size=512, lora_r=4)
    act_low, act_high = low.phases["forward_end"]["activations"], high.phases["forward_end"]["activations"]
    # feature maps grow with the pixels (x4); the 77-token text side does not, nor any L x L matrix
    assert 3.5 * act_low < act_high < 4.5 * act_low


def test_eager_attention_stores_the_scores():
    sdpa = _job("sd15", image_size=512, attention="sdpa")
    eager = _job("sd15", image_size=512, attention="eager")
    scores = 2 * 2 * 8 * 4096 * 4096  # one 64x64-latent self-attention's softmax, 8 heads, bf16, x2
    assert eager.phases["forward_end"]["activations"] - sdpa.phases["forward_end"]["activations"] > scores


def test_transformer_denoisers_estimate():
    flux = _job("flux-dev", lora_r=16, grad_ckpt=True, image_size=512)
    assert flux.ok and flux.peak_bytes > 2 * 11_901_408_320  # bf16 transformer + T5 at least
    dit = _job("dit-xl-2")
    assert dit.ok and dit.params_trainable == 749_826_464


def test_cli_fit_answers_for_sdxl():
    out = subprocess.run([sys.executable, "-m", "preflight", "fit", "stabilityai/stable-diffusion-xl-base-1.0",
                          "--gpu", "a100-80gb", "--offline"], capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    assert "UNet2DConditionModel diffusion, 2.57B parameters" in out.stdout
    assert "1 x 1024px image" in out.stdout and "Traceback" not in out.stderr


def test_replace_keeps_the_family():
    arch = replace(architectures.lookup("sd15"), name="mine")
    assert _job("sd15", arch=arch).ok


def test_cli_estimate_ema_flag_adds_the_copy():
    def peak(*extra):
        out = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "sd15", "--image-size",
                              "512", "--grad-ckpt", "--precision", "amp-fp16", *extra],
                             capture_output=True, text=True, timeout=120)
        assert "Traceback" not in out.stderr
        return out.stdout
    with_ema = peak("--ema")
    assert "ema_copy" in with_ema and "ema_copy" not in peak()
