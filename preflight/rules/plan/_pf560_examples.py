"""PF560 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # diffusers PR 1562: textual inversion, the frozen UNet and VAE only moved to the device
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision fp16 train.py
    # --- train.py
    import torch
    import torch.nn.functional as F
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel
    from transformers import CLIPTextModel

    accelerator = Accelerator()
    text_encoder = CLIPTextModel.from_pretrained("sd", subfolder="text_encoder")
    vae = AutoencoderKL.from_pretrained("sd", subfolder="vae")
    unet = UNet2DConditionModel.from_pretrained("sd", subfolder="unet")
    vae.requires_grad_(False)
    unet.requires_grad_(False)
    optimizer = torch.optim.AdamW(text_encoder.get_input_embeddings().parameters(), lr=5e-4)
    text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
    vae.to(accelerator.device)
    unet.to(accelerator.device)  # warning: PF560
    for batch in loader:
        latents = vae.encode(batch["pixel_values"]).latent_dist.sample()
        noise = torch.randn_like(latents)
        pred = unet(latents + noise, 10, text_encoder(batch["input_ids"])[0]).sample
        loss = F.mse_loss(pred.float(), noise.float())
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # mixed precision from the Accelerator itself; the frozen model moved with .to(device)
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModel

    accelerator = Accelerator(mixed_precision="bf16")
    teacher = AutoModel.from_pretrained("bert-large-uncased")
    student = AutoModel.from_pretrained("bert-base-uncased")
    teacher.requires_grad_(False)
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    student, optimizer, loader = accelerator.prepare(student, optimizer, loader)
    teacher.to(accelerator.device)  # warning: PF560
    for batch in loader:
        with torch.no_grad():
            target = teacher(**batch).last_hidden_state
        loss = torch.nn.functional.mse_loss(student(**batch).last_hidden_state, target)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the frozen models cast to the mixed-precision dtype
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision fp16 train.py
    # --- train.py
    import torch
    import torch.nn.functional as F
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel
    from transformers import CLIPTextModel

    accelerator = Accelerator()
    text_encoder = CLIPTextModel.from_pretrained("sd", subfolder="text_encoder")
    vae = AutoencoderKL.from_pretrained("sd", subfolder="vae")
    unet = UNet2DConditionModel.from_pretrained("sd", subfolder="unet")
    vae.requires_grad_(False)
    unet.requires_grad_(False)
    optimizer = torch.optim.AdamW(text_encoder.get_input_embeddings().parameters(), lr=5e-4)
    text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
    weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32
    vae.to(accelerator.device, dtype=weight_dtype)
    unet.to(accelerator.device, weight_dtype)
    for batch in loader:
        latents = vae.encode(batch["pixel_values"].to(weight_dtype)).latent_dist.sample()
        noise = torch.randn_like(latents)
        pred = unet(latents + noise, 10, text_encoder(batch["input_ids"])[0].to(weight_dtype)).sample
        loss = F.mse_loss(pred.float(), noise.float())
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky: the frozen forward runs under accelerator.autocast()
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision bf16 train.py
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModel

    accelerator = Accelerator()
    teacher = AutoModel.from_pretrained("bert-large-uncased")
    student = AutoModel.from_pretrained("bert-base-uncased")
    teacher.requires_grad_(False)
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    student, optimizer, loader = accelerator.prepare(student, optimizer, loader)
    teacher.to(accelerator.device)
    for batch in loader:
        with torch.no_grad(), accelerator.autocast():
            target = teacher(**batch).last_hidden_state
        loss = torch.nn.functional.mse_loss(student(**batch).last_hidden_state, target)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky: an autocast context bound to a name (diffusers' LCM distillation)
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision fp16 train.py
    # --- train.py
    import torch
    from contextlib import nullcontext
    from accelerate import Accelerator
    from transformers import AutoModel

    accelerator = Accelerator()
    teacher = AutoModel.from_pretrained("bert-large-uncased")
    student = AutoModel.from_pretrained("bert-base-uncased")
    teacher.requires_grad_(False)
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    student, optimizer, loader = accelerator.prepare(student, optimizer, loader)
    teacher.to(accelerator.device)
    for batch in loader:
        with torch.no_grad():
            if torch.backends.mps.is_available():
                autocast_ctx = nullcontext()
            else:
                autocast_ctx = torch.autocast(accelerator.device.type, dtype=torch.float16)
            with autocast_ctx:
                target = teacher(**batch).last_hidden_state
        loss = torch.nn.functional.mse_loss(student(**batch).last_hidden_state, target)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky: the VAE alone kept in fp32 on purpose (SDXL), the cast model fine
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision fp16 train.py
    # --- train.py
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel

    accelerator = Accelerator()
    vae = AutoencoderKL.from_pretrained("sdxl", subfolder="vae")
    unet = UNet2DConditionModel.from_pretrained("sdxl", subfolder="unet")
    vae.requires_grad_(False)
    optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    vae.to(accelerator.device)  # use fp32
    for batch in loader:
        latents = vae.encode(batch["pixel_values"]).latent_dist.sample()
        loss = unet(latents, 10, batch["emb"]).sample.float().pow(2).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky: the frozen model is prepared too (Accelerate wraps its forward)
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision fp16 train.py
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModel

    accelerator = Accelerator()
    teacher = AutoModel.from_pretrained("bert-large-uncased")
    student = AutoModel.from_pretrained("bert-base-uncased")
    teacher.requires_grad_(False)
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    student, teacher, optimizer, loader = accelerator.prepare(student, teacher, optimizer, loader)
    for batch in loader:
        with torch.no_grad():
            target = teacher(**batch).last_hidden_state
        loss = torch.nn.functional.mse_loss(student(**batch).last_hidden_state, target)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # full precision: nothing to gain
    textwrap.dedent("""
    # --- launch
    accelerate launch --mixed_precision no train.py
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModel

    accelerator = Accelerator()
    teacher = AutoModel.from_pretrained("bert-large-uncased")
    student = AutoModel.from_pretrained("bert-base-uncased")
    teacher.requires_grad_(False)
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
    student, optimizer, loader = accelerator.prepare(student, optimizer, loader)
    teacher.to(accelerator.device)
    for batch in loader:
        loss = torch.nn.functional.mse_loss(student(**batch).last_hidden_state, teacher(**batch).last_hidden_state)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
]
