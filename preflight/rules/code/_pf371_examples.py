"""Examples of PF371 (prepared-model-unwrapped-before-training); the shape of kohya-ss/sd-scripts#924."""

from __future__ import annotations

import textwrap

# the job's imports, kept out of the line starts of this module (which imports neither)
_TRAIN = "\nimport torch\nfrom accelerate import Accelerator\n" + """

def train(model, optimizer, loader, epochs):
    accelerator = Accelerator(mixed_precision="bf16")
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
{after_prepare}
    for epoch in range(epochs):
        model.train()
        for batch in loader:
{step}
            loss = torch.nn.functional.mse_loss(out, batch["target"])
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
{after_loop}
"""

PF371_BAD = [
    # sd-scripts#924: the model is unwrapped right after prepare (to reach its methods) and trained so
    textwrap.dedent(_TRAIN.format(
        after_prepare="    model = accelerator.unwrap_model(model)  # warning: PF371",
        step='            out = model(batch["x"])', after_loop="")),
    # the same with the unet of a diffusion script, the loss through .backward() in an accumulate block
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    def main(unet, text_encoder, optimizer, loader, scheduler):
        accelerator = Accelerator(gradient_accumulation_steps=4)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        text_encoder.to(accelerator.device)
        unet = accelerator.unwrap_model(unet)  # warning: PF371
        for step, batch in enumerate(loader):
            with accelerator.accumulate(unet):
                with torch.no_grad():
                    cond = text_encoder(batch["input_ids"])[0]
                noise = torch.randn_like(batch["latents"])
                pred = unet(batch["latents"] + noise, batch["t"], cond).sample
                loss = torch.nn.functional.mse_loss(pred, noise)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
    """),
]

# sd-scripts#924 (fine_tune.py at 2a23713f): a helper that returns `.module` of each DDP model, applied to the
# prepared names right after prepare
PF371_BAD.append(textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.nn.parallel import DistributedDataParallel as DDP


    def transform_if_model_is_ddp(text_encoder, unet):
        return (m.module if type(m) == DDP else m for m in [text_encoder, unet])


    def train(args, unet, text_encoder, optimizer, loader, noise_scheduler):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        unet, text_encoder, optimizer, loader = accelerator.prepare(unet, text_encoder, optimizer, loader)
        text_encoder, unet = transform_if_model_is_ddp(text_encoder, unet)  # warning: PF371
        for epoch in range(args.epochs):
            unet.train()
            for batch in loader:
                with accelerator.accumulate(unet):
                    with torch.set_grad_enabled(args.train_text_encoder):
                        hidden = text_encoder(batch["input_ids"])[0]
                    noise = torch.randn_like(batch["latents"])
                    pred = unet(batch["latents"] + noise, batch["timesteps"], hidden).sample
                    loss = torch.nn.functional.mse_loss(pred.float(), noise.float())
                    accelerator.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad(set_to_none=True)
"""))
# hkproj/pytorch-transformer-distributed#3's shape: the wrapper's `.module` taken before the loop
PF371_BAD.append(textwrap.dedent(_TRAIN.format(
    after_prepare="    model = model.module  # warning: PF371", step='            out = model(batch["x"])',
    after_loop="")))

PF371_GOOD = [
    # the fix: the bare module under a new name, the prepared one trained
    textwrap.dedent(_TRAIN.format(
        after_prepare="    unwrapped = accelerator.unwrap_model(model)\n    head_dim = unwrapped.config.hidden_size",
        step='            out = model(batch["x"])', after_loop="")),
    # tricky: the usual save after the last training loop re-binds the name
    textwrap.dedent(_TRAIN.format(
        after_prepare="", step='            out = model(batch["x"])',
        after_loop="    model = accelerator.unwrap_model(model)\n    model.save_pretrained(\"out\")")),
    # tricky: unwrapped, then prepared again before training
    textwrap.dedent(_TRAIN.format(
        after_prepare="    model = accelerator.unwrap_model(model)\n    model.resize_token_embeddings(32001)\n"
                      "    model = accelerator.prepare(model)",
        step='            out = model(batch["x"])', after_loop="")),
    # tricky: the unwrapped name is a frozen teacher only run under no_grad; the student is trained
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    def distil(student, teacher, optimizer, loader):
        accelerator = Accelerator()
        student, teacher, optimizer, loader = accelerator.prepare(student, teacher, optimizer, loader)
        teacher = accelerator.unwrap_model(teacher)
        teacher.eval()
        for batch in loader:
            with torch.no_grad():
                target = teacher(batch["x"])
            loss = torch.nn.functional.kl_div(student(batch["x"]).log_softmax(-1), target.softmax(-1))
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    """),
]
