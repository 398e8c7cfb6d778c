"""Build ``diffusion_rows.json``: public memory claims of diffusion training (est32).

Every row is a sentence of the diffusers training examples' READMEs (huggingface/diffusers at
commit 58eb52c0803ea9af3abec60841c2a093bdf1f951) that a stated command runs within a GPU
memory size. They are bounds ("fits on a 16GB GPU", "less than 16GB of VRAM"), not measured
peaks: a row is scored by whether preflight's estimate agrees (peak <= the stated bytes).
No earlier split scores these sources (held-out-8 names them as left out: no diffusion reader then).
The rows were collected after preflight/estimate/diffusion.py's terms were written.

Run: python calibration/public/build_diffusion_rows.py          (writes the JSON)
     python calibration/public/build_diffusion_rows.py --score  (scores the rows)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

COMMIT = "58eb52c0803ea9af3abec60841c2a093bdf1f951"
BLOB = f"https://github.com/huggingface/diffusers/blob/{COMMIT}/examples/"

ROWS = [
    {"id": "db-sd14-16gb", "source": BLOB + "dreambooth/README.md#training-on-a-16gb-gpu",
     "claim": "With the help of gradient checkpointing and the 8-bit optimizer from bitsandbytes it's "
              "possible to run train dreambooth on a 16GB GPU.",
     "bound_gb": 16, "kind": "fits",
     "setup": {"model": "CompVis/stable-diffusion-v1-4", "trained": "full UNet", "resolution": 512,
               "micro_batch": 2, "grad_ckpt": True, "optimizer": "adamw-8bit", "precision": "fp32",
               "ema": False, "attention": "sdpa"},
     "notes": "train_batch_size 1 with --with_prior_preservation: instance and class images go through the "
              "UNet together (batch 2); the command passes no --mixed_precision, so fp32 as written"},
    {"id": "db-sd14-12gb", "source": BLOB + "dreambooth/README.md#training-on-a-12gb-gpu",
     "claim": "It is possible to run dreambooth on a 12GB GPU by using gradient checkpointing and the 8-bit "
              "optimizer, xformers, setting grads to none.",
     "bound_gb": 12, "kind": "fits",
     "setup": {"model": "CompVis/stable-diffusion-v1-4", "trained": "full UNet", "resolution": 512,
               "micro_batch": 2, "grad_ckpt": True, "optimizer": "adamw-8bit", "precision": "fp32",
               "ema": False, "attention": "sdpa"},
     "notes": "as above plus --enable_xformers_memory_efficient_attention and --set_grads_to_none"},
    {"id": "t2i-sd14-24gb", "source": BLOB + "text_to_image/README.md#hardware",
     "claim": "With gradient_checkpointing and mixed_precision it should be possible to fine tune the model "
              "on a single 24GB GPU.",
     "bound_gb": 24, "kind": "fits",
     "setup": {"model": "CompVis/stable-diffusion-v1-4", "trained": "full UNet", "resolution": 512,
               "micro_batch": 1, "grad_ckpt": True, "optimizer": "adamw", "precision": "amp-fp16",
               "ema": True, "attention": "sdpa"},
     "notes": "accelerate launch --mixed_precision fp16 train_text_to_image.py --use_ema --train_batch_size 1"},
    {"id": "db-lora-sdxl-16gb", "source": BLOB + "dreambooth/README_sdxl.md#dog-toy-example-with--16gb-vram",
     "claim": "you can train SDXL LoRAs with less than 16GB of VRAM by adding gradient_checkpointing, "
              "xformers, use_8bit_adam, mixed_precision fp16",
     "bound_gb": 16, "kind": "fits",
     "setup": {"model": "stabilityai/stable-diffusion-xl-base-1.0", "trained": "LoRA r=4", "lora_r": 4,
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": True, "optimizer": "adamw-8bit",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa"},
     "notes": "train_dreambooth_lora_sdxl.py (--rank default 4); the script precomputes the text embeddings "
              "and deletes the text encoders when they are not trained (not modelled: charged)"},
    {"id": "db-lora-sdxl-a100-40", "source": BLOB + "dreambooth/README_sdxl.md",
     "claim": "Our experiments were conducted on a single 40GB A100 GPU.",
     "bound_gb": 40, "kind": "fits",
     "setup": {"model": "stabilityai/stable-diffusion-xl-base-1.0", "trained": "LoRA r=4", "lora_r": 4,
               "resolution": 1024, "micro_batch": 1, "grad_ckpt": False, "optimizer": "adamw",
               "precision": "amp-fp16", "ema": False, "attention": "sdpa"},
     "notes": "the README's main command: no checkpointing, AdamW, fp16, batch 1"},
]


def build(path: Path) -> None:
    doc = {"about": __doc__.strip().splitlines()[0], "diffusers_commit": COMMIT, "rows": ROWS}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def score(path: Path) -> int:
    from preflight import architectures
    from preflight.estimate import EstimateInput, estimate

    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    agree = 0
    for row in rows:
        s = row["setup"]
        inp = EstimateInput(arch=architectures.lookup(s["model"]), mode="train", precision=s["precision"],
                            optimizer=s["optimizer"], micro_batch=s["micro_batch"], image_size=s["resolution"],
                            grad_ckpt=s["grad_ckpt"], attention=s["attention"], lora_r=s.get("lora_r"),
                            ema=s["ema"])
        est = estimate(inp)
        bound = row["bound_gb"] * 1e9
        ok = est.peak_bytes <= bound
        agree += ok
        print(f"{row['id']:24s} estimate {est.peak_bytes / 1e9:6.2f} GB (interval {est.interval_bytes[0] / 1e9:.2f}"
              f"..{est.interval_bytes[1] / 1e9:.2f})  claim <= {row['bound_gb']} GB  "
              f"{'agrees' if ok else 'DISAGREES (false OOM)'}")
    print(f"{agree}/{len(rows)} rows agree")
    return 0


if __name__ == "__main__":
    target = Path(__file__).with_name("diffusion_rows.json")
    if "--score" in sys.argv:
        sys.exit(score(target))
    build(target)
