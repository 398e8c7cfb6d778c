"""PF148 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# accelerate issue 3170's shape: diffusers text-to-image, only the UNet is trained
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel
    from transformers import CLIPTextModel, CLIPTokenizer
    {imports}

    def main(name, loader):
        {before}accelerator = Accelerator(mixed_precision="fp16")
        tokenizer = CLIPTokenizer.from_pretrained(name, subfolder="tokenizer")
        {load}
        unet = UNet2DConditionModel.from_pretrained(name, subfolder="unet")
        vae.requires_grad_(False)
        text_encoder.requires_grad_(False)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for batch in loader:
            hidden = text_encoder(batch["input_ids"])[0]
            latents = vae.encode(batch["pixel_values"]).latent_dist.sample()
            loss = unet(latents, 0, hidden).sample.mean()
            accelerator.backward(loss)
    # --- zero3.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: DEEPSPEED
    deepspeed_config:
      gradient_accumulation_steps: 1
      zero3_init_flag: {flag}
      zero_stage: {stage}
    mixed_precision: fp16
    num_machines: 1
    num_processes: 8
    # --- launch
    accelerate launch --config_file zero3.yaml train.py
    """)

_PLAIN = ("text_encoder = CLIPTextModel.from_pretrained(name, subfolder=\"text_encoder\"){pin}\n"
          "    vae = AutoencoderKL.from_pretrained(name, subfolder=\"vae\"){pin2}")

PF148_BAD = [
    _JOB.format(imports="", before="", load=_PLAIN.format(pin="  # error: PF148", pin2="  # error: PF148"),
                flag="true", stage=3),
]

_FIXED = dedent("""\
    with ContextManagers(deepspeed_zero_init_disabled_context_manager()):
                text_encoder = CLIPTextModel.from_pretrained(name, subfolder="text_encoder")
                vae = AutoencoderKL.from_pretrained(name, subfolder="vae")""")

PF148_GOOD = [
    # the fix (diffusers' scripts): the frozen models are loaded with ZeRO-3 init turned off
    _JOB.format(imports="from transformers.utils import ContextManagers\n"
                        "from helpers import deepspeed_zero_init_disabled_context_manager\n",
                before="", load=_FIXED, flag="true", stage=3),
    # tricky-correct: zero3_init_flag off, the frozen models are whole on every rank
    _JOB.format(imports="", before="", load=_PLAIN.format(pin="", pin2=""), flag="false", stage=3),
    # tricky-correct: ZeRO-2 partitions no parameters
    _JOB.format(imports="", before="", load=_PLAIN.format(pin="", pin2=""), flag="true", stage=2),
    # tricky-correct: loaded before Accelerator() registers the DeepSpeed config
    _JOB.format(imports="", before=_PLAIN.format(pin="", pin2="") + "\n    ", load="", flag="true", stage=3),
]
