"""Build ``diffusion_measured.json``: MEASURED peaks of diffusion training runs (issue 17, blind set).

``diffusion_rows.json`` holds bounds ("fits on a 16GB GPU"); these rows hold a figure that someone
read off a run: torch.cuda.max_memory_allocated, nvidia-smi, or a number whose tool the source does
not name (``"measure": "unstated"``). Runs that ran out of memory are kept as ``"kind": "oom"``
with the GPU's capacity. Every row says what was measured, in which unit, and every setup field the
source does not state is an assumption written in the row's notes.

Blind: the rows were written without running the estimator and without reading its diffusion
terms (only ``diffusion_rows.json``'s row format was looked at). First scoring: to be run on main
by the lead.

Run: python calibration/public/build_diffusion_measured.py          (writes the JSON)
     python calibration/public/build_diffusion_measured.py --score  (scores the rows; see below)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

GIB = 2**30

# Measurement kinds. "unstated": the source prints a figure but names no tool.
MEASURES = ("max_memory_allocated", "max_memory_reserved", "nvidia-smi", "unstated", "oom")

HF_BLOG = ("https://github.com/huggingface/blog/blob/2ece681fdf41928fbaf103d702ff7af1da4352fc/"
           "flux-qlora.md")
FAST_DIT = ("https://github.com/chuanyangjin/fast-DiT/blob/0d14a1561a2bb3c0680adf7a17d28a447e844304/"
            "README.md")
SIMPLETUNER = ("https://github.com/bghira/SimpleTuner/blob/0496be2d92af170dcd9901ece9b355bb0c52456b/"
               "documentation/quickstart/FLUX.md")
INVOKE_TI = "https://github.com/invoke-ai/InvokeAI/issues/3008"

_FLUX_QLORA_NOTES = (
    "HF blog 'Fine-Tuning FLUX.1-dev on Consumer Hardware' (2025-06), train_dreambooth_lora_flux_miniature.py: "
    "--width 512 --height 768 --train_batch_size 1 --gradient_accumulation_steps 4 --gradient_checkpointing "
    "--use_8bit_adam --mixed_precision bf16 --rank 4 --cache_latents; LoRA on to_k/to_q/to_v/to_out.0 only "
    "(4,669,440 trainable params); CLIP/T5 embeddings precomputed to a parquet file beforehand, so no text "
    "encoder on the GPU during training; VAE deleted after caching latents. resolution recorded as 627 "
    "(the side of a square with the run's 512x768 = 393,216 pixels: a conversion, width and height kept "
    "beside it); attention assumed sdpa (diffusers default). 'GB' base not stated: taken as 2^30 (assumption).")

ROWS = [
    {"id": "hfblog-flux-qlora-nf4-4090", "source": HF_BLOG + "#:~:text=approximately%209GB",
     "claim": "QLoRA: Peak VRAM usage for QLoRA fine-tuning was approximately 9GB.",
     "kind": "measured", "measure": "unstated", "reported": "approximately 9GB", "measured_gib": 9.0,
     "setup": {"model": "black-forest-labs/FLUX.1-dev", "trained": "LoRA r=4", "lora_r": 4,
               "resolution": 627, "width": 512, "height": 768, "micro_batch": 1, "grad_ckpt": True,
               "optimizer": "adamw-8bit", "precision": "amp-bf16", "ema": False, "attention": "sdpa",
               "base_quant": "bnb-nf4 (prepare_model_for_kbit_training called)",
               "text_encoder_trained": False, "cache_latents": True, "cache_text_embeddings": True,
               "gpu": "RTX 4090 24GB", "versions": "diffusers main 2025-06 (not pinned)"},
     "notes": _FLUX_QLORA_NOTES + " nf4 via BitsAndBytesConfig(load_in_4bit, nf4, compute bf16), no double "
              "quant; prepare_model_for_kbit_training upcasts non-quantized params to fp32 (peft behaviour)."},
    {"id": "hfblog-flux-bf16-lora-4090", "source": HF_BLOG + "#:~:text=consumed%2026%20GB%20VRAM",
     "claim": "BF16 LoRA: Running standard LoRA (with the base FLUX.1-dev in FP16) on the same setup "
              "consumed 26 GB VRAM.",
     "kind": "measured", "measure": "unstated", "reported": "26 GB", "measured_gib": 26.0,
     "setup": {"model": "black-forest-labs/FLUX.1-dev", "trained": "LoRA r=4", "lora_r": 4,
               "resolution": 627, "width": 512, "height": 768, "micro_batch": 1, "grad_ckpt": True,
               "optimizer": "adamw-8bit", "precision": "amp-bf16", "ema": False, "attention": "sdpa",
               "base_quant": None, "text_encoder_trained": False, "cache_latents": True,
               "cache_text_embeddings": True, "gpu": "RTX 4090 24GB",
               "versions": "diffusers main 2025-06 (not pinned)"},
     "notes": _FLUX_QLORA_NOTES + " 'on the same setup' read as: every flag of the QLoRA command except the "
              "4-bit quantization. The heading says BF16 LoRA, the sentence says the base is in FP16: a 16-bit "
              "base either way, recorded as amp-bf16. 26 GB exceeds the 4090's 24 GB: the blog does not say how "
              "(WDDM sysmem fallback, another GPU, or a rounded figure); kept as reported."},
    {"id": "hfblog-flux-fp8-lora-h100", "source": HF_BLOG + "#:~:text=peak%20memory%20usage%20of%2036.57%20GB",
     "claim": "The training run had a peak memory usage of 36.57 GB and completed in approximately 20 minutes.",
     "kind": "measured", "measure": "unstated", "reported": "36.57 GB", "measured_gib": 36.57,
     "setup": {"model": "black-forest-labs/FLUX.1-dev", "trained": "LoRA r=4", "lora_r": 4,
               "resolution": 627, "width": 512, "height": 768, "micro_batch": 1, "grad_ckpt": True,
               "optimizer": "adamw-8bit", "precision": "amp-bf16", "ema": False, "attention": "sdpa",
               "base_quant": "torchao float8 training (convert_to_float8_training)",
               "text_encoder_trained": False, "cache_latents": False, "cache_text_embeddings": False,
               "gpu": "H100 SXM 80GB", "versions": "diffusers-torchao training script (gist), 2025-06"},
     "notes": "same blog, FP8 section: train_dreambooth_lora_flux.py (diffusers-torchao variant) with "
              "--height 768 --width 512 --train_batch_size 1 --gradient_accumulation_steps 1 "
              "--gradient_checkpointing --use_8bit_adam --mixed_precision bf16 --rank 4 --do_fp8_training "
              "--caption_column text. No --cache_latents: the VAE stays on the GPU and encodes each step "
              "(assumption from the command). Per-image captions (--caption_column): the script encodes prompts "
              "each step, so CLIP-L and T5-XXL stay on the GPU in bf16 (assumption from the command, the blog "
              "does not say). LoRA on to_k/to_q/to_v/to_out.0 in fp32 (sayakpaul/diffusers-torchao "
              "training/README.md, the script the blog links). "
              "'peak memory usage' tool not named; two decimals suggest torch.cuda.max_memory_allocated or "
              "reserved (not stated). GB base taken as 2^30 (assumption). resolution 627 as in the rows above."},
    {"id": "fastdit-xl2-ckpt-fp32-a100", "source": FAST_DIT + "#:~:text=44045%20MB",
     "claim": "gradient checkpointing only, global batch 128 on an A100: 0.43 steps/sec, 44045 MB",
     "kind": "measured", "measure": "unstated", "reported": "44045 MB", "measured_gib": round(44045 / 1024, 3),
     "setup": {"model": "facebook/DiT-XL-2-256", "trained": "full DiT (from scratch)", "resolution": 256,
               "micro_batch": 128, "grad_ckpt": True, "optimizer": "adamw", "precision": "fp32", "ema": True,
               "attention": "sdpa", "text_encoder_trained": False, "cache_latents": False,
               "cache_text_embeddings": False, "gpu": "A100 80GB", "versions": "2023-05 (torch 2.x, timm)"},
     "notes": "fast-DiT README 'Improved Training Performance' table (DiT-XL/2, 256x256, global batch 128 on one "
              "A100). Row 2: checkpointing on, no mixed precision, no feature pre-extraction: fp32 weights, "
              "AdamW(lr 1e-4, wd 0), EMA copy on the GPU (train.py: ema = deepcopy(model).to(device)), "
              "stabilityai/sd-vae-ft-ema on the GPU encoding 128 images per step under no_grad. Class-conditional "
              "(label embedding, no text encoder). A100 80GB inferred (44 GB > 40 GB). Every block wrapped in "
              "torch.utils.checkpoint (models.py). 'MB' tool not named: taken as MiB as nvidia-smi prints "
              "(assumption), so 44045/1024 GiB. attention: timm Attention, fused sdpa assumed (timm >= 0.9); "
              "with 256 tokens the attention scores are small either way."},
    {"id": "fastdit-xl2-ckpt-amp-a100", "source": FAST_DIT + "#:~:text=40461%20MB",
     "claim": "gradient checkpointing and mixed precision, global batch 128 on an A100: 0.56 steps/sec, 40461 MB",
     "kind": "measured", "measure": "unstated", "reported": "40461 MB", "measured_gib": round(40461 / 1024, 3),
     "setup": {"model": "facebook/DiT-XL-2-256", "trained": "full DiT (from scratch)", "resolution": 256,
               "micro_batch": 128, "grad_ckpt": True, "optimizer": "adamw", "precision": "amp-fp16", "ema": True,
               "attention": "sdpa", "text_encoder_trained": False, "cache_latents": False,
               "cache_text_embeddings": False, "gpu": "A100 80GB", "versions": "2023-05 (torch 2.x, timm)"},
     "notes": "as fastdit-xl2-ckpt-fp32-a100 plus fp16 mixed precision (accelerate launch --mixed_precision fp16: "
              "fp32 master weights, autocast). VAE still encodes on the GPU each step. MB taken as MiB "
              "(assumption)."},
    {"id": "fastdit-xl2-ckpt-amp-features-a100", "source": FAST_DIT + "#:~:text=27485%20MB",
     "claim": "gradient checkpointing, mixed precision and feature pre-extraction, global batch 128 on an A100: "
              "0.84 steps/sec, 27485 MB",
     "kind": "measured", "measure": "unstated", "reported": "27485 MB", "measured_gib": round(27485 / 1024, 3),
     "setup": {"model": "facebook/DiT-XL-2-256", "trained": "full DiT (from scratch)", "resolution": 256,
               "micro_batch": 128, "grad_ckpt": True, "optimizer": "adamw", "precision": "amp-fp16", "ema": True,
               "attention": "sdpa", "text_encoder_trained": False, "cache_latents": True,
               "cache_text_embeddings": False, "gpu": "A100 80GB", "versions": "2023-05 (torch 2.x, timm)"},
     "notes": "as fastdit-xl2-ckpt-amp-a100 with latents pre-extracted by extract_features.py (cached latents, "
              "no encoding during training). train.py still loads the VAE onto the GPU (about 84M fp32 params) "
              "without using it. MB taken as MiB (assumption)."},
    {"id": "fastdit-xl2-nockpt-fp32-oom", "source": FAST_DIT + "#:~:text=out%20of%20memory",
     "claim": "no gradient checkpointing, no mixed precision, no feature pre-extraction: out of memory",
     "kind": "oom", "measure": "oom", "reported": "out of memory", "measured_gib": None, "gpu_gib": 80.0,
     "setup": {"model": "facebook/DiT-XL-2-256", "trained": "full DiT (from scratch)", "resolution": 256,
               "micro_batch": 128, "grad_ckpt": False, "optimizer": "adamw", "precision": "fp32", "ema": True,
               "attention": "sdpa", "text_encoder_trained": False, "cache_latents": False,
               "cache_text_embeddings": False, "gpu": "A100 80GB", "versions": "2023-05 (torch 2.x, timm)"},
     "notes": "first row of the same table: the original DiT implementation (no checkpointing, fp32, VAE encoding "
              "on the GPU) at global batch 128 on one A100 ran out of memory. gpu_gib 80 is the A100 80GB's "
              "nominal size (assumed the same card as the measured rows); the usable capacity is about 79.1 GiB."},
    {"id": "simpletuner-flux-lora16-bf16", "source": SIMPLETUNER + "#:~:text=30G%20VRAM",
     "claim": "rank-16 LoRA, every component: a bit more than 30G VRAM when not quantising the base model",
     "kind": "measured", "measure": "unstated", "reported": "a bit more than 30G", "measured_gib": 30.0,
     "setup": {"model": "black-forest-labs/FLUX.1-dev", "trained": "LoRA r=16", "lora_r": 16,
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": True, "optimizer": "adamw-bf16",
               "precision": "bf16", "ema": False, "attention": "sdpa", "base_quant": None,
               "text_encoder_trained": False, "cache_latents": True, "cache_text_embeddings": True,
               "gpu": "not stated", "versions": "SimpleTuner release branch (quickstart at the pinned commit)"},
     "notes": "SimpleTuner FLUX quickstart 'Hardware requirements': LoRA rank 16 on MLP, projections and multimodal "
              "blocks (--flux_lora_target all). Quickstart defaults assumed for what the sentence does not state: "
              "train_batch_size 1, gradient_checkpointing true, optimizer adamw_bf16 (bf16 weights and states), "
              "mixed_precision bf16, 1024 px (the quickstart's subject dataset; it also lists a 512 px set), VAE "
              "latents and text embeds cached to disk (its dataloader config), text encoders not trained. "
              "'a bit more than 30G': a lower bound, recorded as 30 with G taken as 2^30 (assumption). GPU and "
              "tool not named."},
    {"id": "simpletuner-flux-lora16-int8", "source": SIMPLETUNER + "#:~:text=18G%20VRAM",
     "claim": "rank-16 LoRA, every component: a bit more than 18G VRAM when quantising to int8 + bf16 base/LoRA "
              "weights",
     "kind": "measured", "measure": "unstated", "reported": "a bit more than 18G", "measured_gib": 18.0,
     "setup": {"model": "black-forest-labs/FLUX.1-dev", "trained": "LoRA r=16", "lora_r": 16,
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": True, "optimizer": "adamw-bf16",
               "precision": "bf16", "ema": False, "attention": "sdpa", "base_quant": "int8-quanto",
               "text_encoder_trained": False, "cache_latents": True, "cache_text_embeddings": True,
               "gpu": "not stated", "versions": "SimpleTuner release branch (quickstart at the pinned commit)"},
     "notes": "as simpletuner-flux-lora16-bf16 with base_model_precision int8-quanto (optimum-quanto int8 weights, "
              "bf16 compute; the quickstart's quantised config). Same assumptions; 'a bit more than 18G' recorded "
              "as 18 with G taken as 2^30 (assumption)."},
    {"id": "invokeai-ti-sd21base-b1-t4", "source": INVOKE_TI + "#:~:text=7835MiB",
     "claim": "For a batch size of 1, it uses 7835MiB [nvidia-smi].",
     "kind": "measured", "measure": "nvidia-smi", "reported": "7835MiB", "measured_gib": round(7835 / 1024, 3),
     "setup": {"model": "stabilityai/stable-diffusion-2-1-base", "trained": "textual inversion (one token embedding)",
               "resolution": 512, "micro_batch": 1, "grad_ckpt": False, "optimizer": "adamw",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa", "text_encoder_trained": False,
               "cache_latents": False, "cache_text_embeddings": False, "gpu": "Tesla T4 16GB (15360MiB)",
               "versions": "InvokeAI 2.3.2 (2023-03)"},
     "notes": "invokeai-ti --model=v2-1_512-ema-pruned --resolution=512 --train_batch_size=1 "
              "--gradient_accumulation_steps=4 --mixed_precision=fp16 (the rest of the command is cut in the "
              "issue). InvokeAI's TI trainer follows diffusers' textual_inversion.py: only the token-embedding "
              "rows train; text encoder in fp32 (its activations are needed for the backward), UNet and VAE cast "
              "to fp16, VAE encodes each step. ASSUMPTIONS: no gradient checkpointing (not in the visible "
              "command); attention sdpa (torch 2.0 was out; InvokeAI may use xformers when installed); "
              "nvidia-smi prints MiB (2^20 bytes), so 7835/1024 GiB; it includes the CUDA context (about 0.3-0.5 GiB on a T4). text_encoder_trained False "
              "means its weights are frozen except the new embedding."},
    {"id": "invokeai-ti-sd21base-b4-t4", "source": INVOKE_TI + "#:~:text=13709MiB",
     "claim": "I have to lower batch size to no greater than 4, which uses 13709MiB / 15360MiB according to "
              "nvidia-smi.",
     "kind": "measured", "measure": "nvidia-smi", "reported": "13709MiB", "measured_gib": round(13709 / 1024, 3),
     "setup": {"model": "stabilityai/stable-diffusion-2-1-base", "trained": "textual inversion (one token embedding)",
               "resolution": 512, "micro_batch": 4, "grad_ckpt": False, "optimizer": "adamw",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa", "text_encoder_trained": False,
               "cache_latents": False, "cache_text_embeddings": False, "gpu": "Tesla T4 16GB (15360MiB)",
               "versions": "InvokeAI 2.3.2 (2023-03)"},
     "notes": "same issue and command with --train_batch_size=4 (the reporter's largest batch that fits). Same "
              "assumptions as invokeai-ti-sd21base-b1-t4; nvidia-smi MiB, so 13709/1024 GiB."},
    {"id": "diffusers-8560-sd3-full-4090-oom", "source": "https://github.com/huggingface/diffusers/issues/8560",
     "claim": "train_dreambooth_sd3.py, 1024 px, batch 1, fp16: CUDA out of memory ... GPU 0 has a total capacty "
              "of 23.64 GiB ... 22.81 GiB is allocated by PyTorch",
     "kind": "oom", "measure": "oom", "reported": "OOM (22.81 GiB allocated at failure)", "measured_gib": None,
     "gpu_gib": 23.64,
     "setup": {"model": "stabilityai/stable-diffusion-3-medium-diffusers", "trained": "full transformer (MMDiT)",
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": False, "optimizer": "adamw",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa", "text_encoder_trained": False,
               "cache_latents": False, "cache_text_embeddings": True, "gpu": "RTX 4090 (23.64 GiB)",
               "versions": "diffusers ~0.29 (2024-06, not stated)"},
     "notes": "accelerate launch train_dreambooth_sd3.py --mixed_precision fp16 --resolution 1024 "
              "--train_batch_size 1 --gradient_accumulation_steps 4, single --instance_prompt, no "
              "--gradient_checkpointing, no --use_8bit_adam (torch AdamW). Trained transformer kept in fp32 "
              "(the script casts only frozen weights to fp16), VAE on the GPU in fp32 encoding each step "
              "(vae.to(device, float32) in the script). Validation (--validation_epochs 25) also runs after "
              "epoch 0 (epoch % 25 == 0) and reloads the text encoders: the issue does not say whether the OOM "
              "came in a training step or in validation. With one instance prompt "
              "and frozen text encoders the script encodes the prompt once and frees the three text encoders "
              "before the loop (recorded as cache_text_embeddings True: from the script's behaviour, an "
              "assumption for this run). gpu_gib is the capacity the OOM message prints."},
    {"id": "diffusers-10120-sd3-full-a100-oom", "source": "https://github.com/huggingface/diffusers/issues/10120",
     "claim": "train_dreambooth_sd3.py, 256 px, batch 1, fp16, 8-bit Adam on one A100: CUDA out of memory ... "
              "total capacity of 39.56 GiB ... 38.05 GiB is allocated by PyTorch",
     "kind": "oom", "measure": "oom", "reported": "OOM (38.05 GiB allocated at failure)", "measured_gib": None,
     "gpu_gib": 39.56,
     "setup": {"model": "stabilityai/stable-diffusion-3-medium-diffusers", "trained": "full transformer (MMDiT)",
               "resolution": 256, "micro_batch": 1, "grad_ckpt": False, "optimizer": "adamw-8bit",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa", "text_encoder_trained": False,
               "cache_latents": False, "cache_text_embeddings": True, "gpu": "A100 40GB (39.56 GiB)",
               "versions": "diffusers ~0.31/0.32 (2024-12, not stated)"},
     "notes": "python train_dreambooth_sd3.py --mixed_precision fp16 --resolution 256 --train_batch_size 1 "
              "--gradient_accumulation_steps 4 --use_8bit_adam, single --instance_prompt, no "
              "--gradient_checkpointing, --validation_epochs 25 (validation also runs after epoch 0 and reloads the "
              "text encoders: the issue does not say whether the OOM came in a training step or in validation, "
              "an open question for scoring). "
              "Same script behaviour as diffusers-8560-sd3-full-4090-oom."},
    {"id": "sdscripts-1259-sdxl-full-bf16-fused-adafactor",
     "source": "https://github.com/kohya-ss/sd-scripts/pull/1259",
     "claim": "with SDXL, the VRAM used when training in BF16 drops to 10GB of VRAM [with the fused Adafactor "
              "backward pass]",
     "kind": "measured", "measure": "unstated", "reported": "10GB", "measured_gib": 10.0,
     "setup": {"model": "stabilityai/stable-diffusion-xl-base-1.0", "trained": "full UNet",
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": True,
               "optimizer": "adafactor (fused backward pass: optimizer step inside backward)",
               "precision": "bf16", "ema": False, "attention": "sdpa", "text_encoder_trained": False,
               "cache_latents": True, "cache_text_embeddings": True, "gpu": "not stated (24GB class)",
               "versions": "sd-scripts PR #1259 (2024-04)"},
     "notes": "sdxl_train.py with the PR's --fused_backward_pass and Adafactor, --full_bf16 (bf16 weights, "
              "gradients and states). The PR states only the model, the precision and the figure. ASSUMED from "
              "sd-scripts' documented 24GB SDXL fine-tune recipe (docs/train_SDXL-en.md): UNet only, "
              "gradient checkpointing, cached latents and cached text-encoder outputs, batch 1 at 1024 px, sdpa. "
              "The fused step frees each gradient right after its parameter is updated, so at most a few "
              "gradients are alive at once. GB base taken as 2^30 (assumption)."},
]


def build(path: Path) -> None:
    doc = {"about": __doc__.strip().splitlines()[0], "measures": list(MEASURES), "gib": GIB, "rows": ROWS}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


#: optimizer names of the rows -> the estimator's (None: not expressible as written)
_OPTIMIZERS = {"adamw": "adamw", "adamw-8bit": "adamw-8bit", "adamw-bf16": "adamw"}


def _torch_version(versions: str) -> str | None:
    """The torch release a row's ``versions`` text states: an explicit ``torch X.Y``, or
    ``torch 2.x`` with a ``YYYY-MM`` date before 2023-10 (torch 2.1.0 was released 2023-10-04,
    2.0.0 on 2023-03-15), which can only be 2.0.x; else None (unknown)."""
    import re

    m = re.search(r"torch (\d+\.\d+)", versions or "")
    if m:
        return m.group(1)
    date = re.search(r"(20\d\d)-(\d\d)", versions or "")
    if "torch 2.x" in (versions or "") and date and (int(date.group(1)), int(date.group(2))) < (2023, 10):
        return "2.0"
    return None


def _input(row: dict[str, Any]) -> tuple[Any, list[str]]:
    """The estimator input of ``row`` and the row facts that input cannot say (scored anyway)."""
    from preflight import architectures
    from preflight.estimate import EstimateInput

    s = row["setup"]
    unsaid = []
    opt = s["optimizer"]
    if opt.startswith("adafactor"):
        name = "adafactor"
        if "fused" in opt:
            unsaid.append("optimizer step fused into backward")
    else:
        name = _OPTIMIZERS.get(opt, "adamw")
        if opt != name:
            unsaid.append(f"optimizer {opt} (charged as {name})")
    bq = s.get("base_quant") or ""
    quant = "4bit" if bq.startswith("bnb-nf4") else "8bit" if bq.startswith("int8") else None
    if bq and quant is None:
        unsaid.append(f"base weights {bq}")
    inp = EstimateInput(arch=architectures.lookup(s["model"]), mode="train", precision=s["precision"],
                        optimizer=name, micro_batch=s["micro_batch"], image_size=s["resolution"],
                        grad_ckpt=s["grad_ckpt"], attention=s["attention"], lora_r=s.get("lora_r"),
                        ema=s["ema"], quant=quant,
                        cache_text_embeddings=bool(s.get("cache_text_embeddings")),
                        cache_latents=bool(s.get("cache_latents")),
                        textual_inversion=s["trained"].startswith("textual inversion"),
                        torch_version=_torch_version(s.get("versions", "")), vae_dtype=s.get("vae_dtype"),
                        zero_grad_after_forward=bool(s.get("zero_grad_after_forward")))
    return inp, unsaid


def score(path: Path) -> int:
    """Estimate every row with the facts the estimator's input can say (the same mapping as
    build_diffusion_rows.py's bound rows) and print each row's error against its measured peak
    (GiB = 2^30 bytes), the OOM rows' verdicts against ``gpu_gib``, and the rows' unsaid facts."""
    from preflight.estimate import estimate

    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    errs: list[float] = []
    clean: list[float] = []
    inside = 0
    ooms = oom_right = 0
    for row in rows:
        inp, unsaid = _input(row)
        est = estimate(inp)
        peak = est.peak_bytes / GIB
        lo, hi = (b / GIB for b in est.interval_bytes)
        note = ("; not said: " + ", ".join(unsaid)) if unsaid else ""
        if row["kind"] == "oom":
            ooms += 1
            ok = peak > row["gpu_gib"]
            oom_right += ok
            print(f"{row['id']:44s} oom on {row['gpu_gib']:.2f} GiB  est {peak:7.2f} GiB  "
                  f"{'agrees' if ok else 'FALSE FIT'}{note}")
            continue
        err = (peak - row["measured_gib"]) / row["measured_gib"]
        errs.append(err)
        if not unsaid:
            clean.append(err)
        inside += lo <= row["measured_gib"] <= hi
        print(f"{row['id']:44s} measured {row['measured_gib']:7.2f}  est {peak:7.2f} ({lo:.2f}..{hi:.2f}) "
              f"{100 * err:+7.1f}%{note}")
    n = len(errs)
    mae = 100 * sum(abs(e) for e in errs) / n
    signed = 100 * sum(errs) / n
    print(f"{n} measured rows: mean |error| {mae:.1f}%, mean signed {signed:+.1f}%, inside interval {inside}/{n}; "
          f"OOM rows called OOM {oom_right}/{ooms}")
    if clean:
        print(f"{len(clean)} measured rows with every fact said: mean |error| "
              f"{100 * sum(abs(e) for e in clean) / len(clean):.1f}%")
    return 0


if __name__ == "__main__":
    target = Path(__file__).with_name("diffusion_measured.json")
    if "--score" in sys.argv:
        sys.exit(score(target))
    build(target)
