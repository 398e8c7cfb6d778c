"""PF229 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF229`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF229_BAD = [
    # diffusers issue 1855: the checkpoint save re-binds the prepared model, the next epochs train it bare
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(model, pipeline_cls, train_dataloader, num_epochs=10):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for epoch in range(num_epochs):
            model.train()
            for batch in train_dataloader:
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.wait_for_everyone()
            model = accelerator.unwrap_model(model)  # warning: PF229
            if accelerator.is_main_process:
                pipeline_cls(model=model).save_pretrained(f"checkpoint-{epoch}")
"""),
    # accelerate issue 2193: a new optimizer half-way through an fp16 run
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(unet, text_encoder, unet_params, text_params, loader, args):
        accelerator = Accelerator(mixed_precision="fp16")
        optimizer = torch.optim.AdamW(list(unet_params) + list(text_params), lr=args.lr)
        unet, text_encoder, optimizer, loader = accelerator.prepare(unet, text_encoder, optimizer, loader)
        step = 0
        for batch in loader:
            loss = unet(batch, text_encoder(batch["ids"])).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            step += 1
            if step == args.stop_text_encoder_training:
                text_encoder.requires_grad_(False)
                optimizer = torch.optim.AdamW(unet_params, lr=args.lr)  # warning: PF229
"""),
]

PF229_GOOD = [
    # the fix of the first: the unwrapped module gets its own name
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(model, pipeline_cls, train_dataloader, num_epochs=10):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for epoch in range(num_epochs):
            for batch in train_dataloader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            unwrapped_model = accelerator.unwrap_model(model)
            if accelerator.is_main_process:
                pipeline_cls(model=unwrapped_model).save_pretrained(f"checkpoint-{epoch}")
"""),
    # tricky-correct: unwrapping after the training loop, for the final save
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(model, loader):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        model = accelerator.unwrap_model(model)
        model.save_pretrained("final")
"""),
    # tricky-correct: the new optimizer goes through prepare before the next step
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, head_params, loader, args):
        accelerator = Accelerator(mixed_precision="fp16")
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step == args.freeze_at:
                optimizer = torch.optim.AdamW(head_params, lr=args.lr)
                optimizer = accelerator.prepare(optimizer)
"""),
    # tricky-correct: a new optimizer under bf16 without accumulation steps like the prepared one would
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, head_params, loader, args):
        accelerator = Accelerator(mixed_precision="bf16")
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step == args.freeze_at:
                optimizer = torch.optim.AdamW(head_params, lr=args.lr)
"""),
]
