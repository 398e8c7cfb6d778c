"""PF354 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TI = textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def train(text_encoder, unet, loader, new_id, vocab_size, lr=5e-4, steps=3000):
        embeddings = text_encoder.get_input_embeddings()
        orig = embeddings.weight.data.clone()
        keep = torch.arange(vocab_size) != new_id
        optimizer = torch.optim.{opt}{mark}
        text_encoder.train()
        for step, batch in zip(range(steps), loader):
            states = text_encoder(batch["input_ids"])[0]
            loss = F.mse_loss(unet(batch["latents"], batch["t"], states), batch["noise"])
            loss.backward()
            {mask}
            optimizer.step()
            optimizer.zero_grad()
            {restore}
""")

PF354_BAD = [
    # diffusers issue 1009: AdamW's default decay on the rows whose gradients are zeroed
    _TI.format(opt="AdamW(embeddings.parameters(), lr=lr)", mark="  # warning: PF354",
               mask="embeddings.weight.grad[keep] = 0", restore=""),
    # the gradient through an alias, with .data, and an explicit decay
    _TI.format(opt="AdamW(embeddings.parameters(), lr=lr, weight_decay=1e-2)", mark="  # warning: PF354",
               mask="grads = embeddings.weight.grad\n        grads.data[keep, :] = grads.data[keep, :].fill_(0)",
               restore=""),
    # Adam with L2 decay: added to the gradient after the mask
    _TI.format(opt="Adam([embeddings.weight], lr=lr, weight_decay=1e-4)", mark="  # warning: PF354",
               mask="embeddings.weight.grad[keep].zero_()", restore=""),
]

PF354_BAD.append(
    # diffusers' custom-diffusion shape: the class chosen by an option, the embeddings chained with other
    # parameters, the gradient read through the prepared (DDP-wrapped) model
    textwrap.dedent("""
    import itertools

    import torch


    def train(args, accelerator, text_encoder, attn_layers, loader, modifier_id, vocab_size):
        if args.use_8bit_adam:
            import bitsandbytes as bnb
            optimizer_class = bnb.optim.AdamW8bit
        else:
            optimizer_class = torch.optim.AdamW
        optimizer = optimizer_class(  # warning: PF354
            itertools.chain(text_encoder.get_input_embeddings().parameters(), attn_layers.parameters()),
            lr=args.learning_rate,
        )
        text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
        for batch in loader:
            loss = text_encoder(batch["input_ids"])[0].pow(2).mean()
            accelerator.backward(loss)
            grads = text_encoder.module.get_input_embeddings().weight.grad
            keep = torch.arange(vocab_size) != modifier_id
            grads.data[keep, :] = grads.data[keep, :].fill_(0)
            optimizer.step()
            optimizer.zero_grad()
"""))

PF354_GOOD = [
    # the fix (diffusers): the frozen rows written back after every step
    _TI.format(opt="AdamW(embeddings.parameters(), lr=lr)", mark="", mask="embeddings.weight.grad[keep] = 0",
               restore="with torch.no_grad():\n            embeddings.weight[keep] = orig[keep]"),
    # no decay
    _TI.format(opt="AdamW(embeddings.parameters(), lr=lr, weight_decay=0.0)", mark="",
               mask="embeddings.weight.grad[keep] = 0", restore=""),
    # tricky-correct: Adam without decay (its default is 0; zero gradients from the start leave the rows unchanged)
    _TI.format(opt="Adam(embeddings.parameters(), lr=lr)", mark="", mask="embeddings.weight.grad[keep] = 0",
               restore=""),
    # tricky-correct: gradients clipped by hand, every element scaled (no row frozen)
    _TI.format(opt="AdamW(embeddings.parameters(), lr=lr)", mark="",
               mask="for p in embeddings.parameters():\n            p.grad.data.mul_(clip_coef)", restore=""),
    # tricky-correct: the masked gradient belongs to a parameter the decaying optimizer does not hold
    _TI.format(opt="AdamW(unet.parameters(), lr=lr)", mark="", mask="embeddings.weight.grad[keep] = 0",
               restore=""),
]
