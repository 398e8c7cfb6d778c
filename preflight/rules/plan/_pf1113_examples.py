"""PF1113 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_LAUNCH = """\
# --- launch
accelerate launch --multi_gpu --num_processes {n} train.py
"""

_SCRIPT = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    {device}


    def main(unet, vae, text_encoder, optimizer, loader):
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        vae.to(device, dtype=torch.float16)
        text_encoder.to(device, dtype=torch.float16)
        for batch in loader:
            latents = vae.encode(batch["pixel_values"].to(device)).latent_dist.sample()
            hidden = text_encoder(batch["input_ids"].to(device))[0]
            loss = unet(latents, hidden).sample.float().pow(2).mean()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
""")

PF1113_BAD = [
    # Stability-AI/lora_accelerated PR 2: the frozen models and the batches on cuda:0 in every process
    _SCRIPT.format(device='device = torch.device("cuda:0")  # warning: PF1113') + _LAUNCH.format(n=4),
    # a literal in the call
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator


    def main(model, teacher, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        teacher = teacher.to("cuda:0").eval()  # warning: PF1113
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    """) + _LAUNCH.format(n=2),
]

PF1113_GOOD = [
    # the fix
    _SCRIPT.format(device="device = accelerator.device") + _LAUNCH.format(n=4),
    # tricky-correct: one process, where cuda:0 is the accelerator's device
    _SCRIPT.format(device='device = torch.device("cuda:0")') + _LAUNCH.format(n=1),
    # tricky-correct: a per-process device
    _SCRIPT.format(device='device = torch.device(f"cuda:{accelerator.local_process_index}")') + _LAUNCH.format(n=4),
    # tricky-correct: the script pins its own visible GPU per process
    _SCRIPT.format(device='import os\nos.environ["CUDA_VISIBLE_DEVICES"] = os.environ["LOCAL_RANK"]\n'
                          'device = torch.device("cuda:0")') + _LAUNCH.format(n=4),
    # tricky-correct: a main-process-only evaluation on GPU 0, and an int that is not a device
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    seed = 0


    def main(model, judge, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.is_main_process:
            judge.to("cuda:0")
            judge.cuda(seed)
    """) + _LAUNCH.format(n=2),
]
