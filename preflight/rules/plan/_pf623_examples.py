"""PF623 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# segmind/distill-sd issue 20's shape: a student and a frozen teacher UNet prepared together
_DISTILL = dedent("""
    # --- distill.py
    import torch
    import torch.nn.functional as F
    from accelerate import Accelerator
    from diffusers import DDPMScheduler, UNet2DConditionModel

    from data import build_loader


    def main(teacher_path, student_config, steps):
        accelerator = Accelerator(mixed_precision="fp16")
        noise_scheduler = DDPMScheduler.from_pretrained(teacher_path, subfolder="scheduler")
        teacher = UNet2DConditionModel.from_pretrained(teacher_path, subfolder="unet")
        teacher.requires_grad_(False)
        student = UNet2DConditionModel.from_config(UNet2DConditionModel.load_config(student_config))
        student.train()
        optimizer = torch.optim.AdamW(student.parameters(), lr=1e-5)
        loader = build_loader()
        {prepare}
        for batch in loader:
            noise = torch.randn_like(batch["latents"])
            t = torch.randint(0, 1000, (noise.shape[0],), device=noise.device)
            noisy = noise_scheduler.add_noise(batch["latents"], noise, t)
            pred = student(noisy, t, batch["cond"]).sample
            with torch.no_grad():
                target = teacher(noisy, t, batch["cond"]).sample
            loss = F.mse_loss(pred.float(), target.float())
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- ds_accelerate.yaml
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      gradient_accumulation_steps: 1
      zero_stage: 2
    distributed_type: {dist}
    mixed_precision: fp16
    num_machines: 1
    num_processes: 4
    # --- launch
    accelerate launch --config_file ds_accelerate.yaml distill.py
    """)

_TOGETHER = ("student, optimizer, loader, teacher = accelerator.prepare(student, optimizer, loader, teacher)"
             "  # error: PF623")
_ALONE = ("student, optimizer, loader = accelerator.prepare(student, optimizer, loader)\n"
          "    teacher.to(accelerator.device, dtype=torch.float16)")

PF623_BAD = [
    _DISTILL.format(prepare=_TOGETHER, dist="DEEPSPEED"),
]

PF623_GOOD = [
    # the fix of distill-sd issue 20: the teacher moved by hand
    _DISTILL.format(prepare=_ALONE, dist="DEEPSPEED"),
    # tricky: the same two-model prepare under DDP is fine
    _DISTILL.format(prepare=_TOGETHER.replace("  # error: PF623", ""), dist="MULTI_GPU"),
]
