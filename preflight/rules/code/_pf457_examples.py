"""PF457 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate issue 1299: the "explore" guide's manual accumulation, zero_grad at the top
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, torch.optim.AdamW(model.parameters()), loader)
    for index, batch in enumerate(loader):
        optimizer.zero_grad()  # error: PF457
        loss = model(**batch).loss / 4
        accelerator.backward(loss)
        if (index + 1) % 4 == 0:
            optimizer.step()
"""),
    # openWakeWord issue 316: a method of the model, stepping once 128 samples are seen
    textwrap.dedent("""
    import torch


    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(16, 1)
            self.optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-4)

        def auto_train(self, batches):
            accumulated_samples = 0
            for x, y in batches:
                self.optimizer.zero_grad()  # error: PF457
                loss = torch.nn.functional.mse_loss(self.net(x), y) * (x.shape[0] / 128)
                loss.backward()
                accumulated_samples += x.shape[0]
                if accumulated_samples >= 128:
                    self.optimizer.step()
                    accumulated_samples = 0
"""),
    # model.zero_grad() on the model the optimizer trains; the step every args.gradient_accumulation_steps
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, batch in enumerate(loader):
        model.zero_grad()  # error: PF457
        loss = model(batch).mean() / args.gradient_accumulation_steps
        loss.backward()
        if step % args.gradient_accumulation_steps == 0:
            optimizer.step()
            scheduler.step()
"""),
    # zero_grad at the top inside accelerator.accumulate: the prepared optimizer clears only on the
    # sync micro-batch, right before its backward (this was a correct example until held-out-17's
    # LongCat-Image issue 46 showed the window's earlier gradients are lost)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, torch.optim.AdamW(model.parameters()), loader)
    for batch in loader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()  # error: PF457
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
"""),
    # held-out-17 (LongCat-Image LoRA example): zero_grad at the top of the accumulate block,
    # inside a nested no_grad-free with; the accumulation comes from argparse
    textwrap.dedent("""
    import argparse

    import torch
    from accelerate import Accelerator

    parser = argparse.ArgumentParser()
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    args = parser.parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for batch in loader:
            with accelerator.accumulate(model):
                with accelerator.autocast():
                    optimizer.zero_grad()  # error: PF457
                    loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
"""),
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8, mixed_precision="bf16")
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            with torch.no_grad():
                latents = vae.encode(batch["pixel_values"]).latent_dist.sample()
            optimizer.zero_grad()  # error: PF457
            loss = torch.nn.functional.mse_loss(model(latents), batch["target"])
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
"""),
]

GOOD_EXAMPLES = [
    # the fix: clear after the step, inside the condition
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.AdamW(model.parameters())
    for index, batch in enumerate(loader):
        loss = model(**batch).loss / 4
        loss.backward()
        if (index + 1) % 4 == 0:
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the zero_grad is gated on the window start; a step skipped for a non-finite loss is no accumulation
    textwrap.dedent("""
    import torch

    optimizer = torch.optim.AdamW(model.parameters())
    for i, batch in enumerate(loader):
        if i % 4 == 0:
            optimizer.zero_grad()
        loss = model(batch).mean() / 4
        loss.backward()
        if (i + 1) % 4 == 0:
            optimizer.step()
    for batch in loader:
        optimizer.zero_grad()
        loss = model(batch).mean()
        loss.backward()
        if torch.isfinite(loss):
            optimizer.step()
"""),
    # a GAN: zero_grad clears the discriminator's optimizer, the gated step is the generator's
    textwrap.dedent("""
    import torch

    opt_d = torch.optim.Adam(disc.parameters())
    opt_g = torch.optim.Adam(gen.parameters())
    for i, real in enumerate(loader):
        opt_d.zero_grad()
        d_loss = disc(real).mean() - disc(gen(noise).detach()).mean()
        d_loss.backward()
        opt_d.step()
        g_loss = -disc(gen(noise)).mean()
        g_loss.backward()
        if i % 5 == 0:
            opt_g.step()
            opt_g.zero_grad()
"""),
    # Accelerate: zero_grad after the step in the accumulate block (the usual order); zero_grad at
    # the top of the block with an Accelerator that does not accumulate (the default 1)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
"""),
]
