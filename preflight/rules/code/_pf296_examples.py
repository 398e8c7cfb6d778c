"""PF296 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# huggingface/trl#321's shape: the PPO minibatch step back-propagates in a helper called after the block
_PPO = textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer = accelerator.prepare(model, torch.optim.Adam(model.parameters(), lr=1.41e-5))


    def train_minibatch(logprobs, values, batch):
        loss = ppo_loss(logprobs, values, batch)
        accelerator.backward(loss)  # {pin}
        optimizer.step()
        optimizer.zero_grad()
        return loss.detach()


    for epoch in range(4):
        for mb in loader:
            with accelerator.accumulate(model):
                logprobs, values = model(mb["query_response"])
            {call}
""")

BAD_EXAMPLES = [
    _PPO.format(pin="warning: PF296", call="stats = train_minibatch(logprobs, values, mb)"),
    # a trainer class: the forward in the block, the backward written after it
    textwrap.dedent("""
    class Trainer:
        def __init__(self, accelerator, model, optimizer):
            self.accelerator, self.model, self.optimizer = accelerator, model, optimizer

        def train_epoch(self, loader):
            for batch in loader:
                with self.accelerator.accumulate(self.model):
                    loss = self.model(**batch).loss
                self.accelerator.backward(loss)  # warning: PF296
                self.optimizer.step()
                self.optimizer.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the helper is called inside the block
    _PPO.format(pin="inside the block through the call below",
                call="    stats = train_minibatch(logprobs, values, mb)"),
    # the usual loop: everything in the block; logging after it
    textwrap.dedent("""
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            progress.update(1)
            accelerator.log({"loss": loss.item()})
"""),
    # tricky: the block calls a helper that back-propagates; a later evaluation helper only runs forwards
    textwrap.dedent("""
    def micro_step(batch):
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        return loss


    def evaluate(batch):
        with torch.no_grad():
            return model(**batch).loss


    for batch in loader:
        with accelerator.accumulate(model):
            loss = micro_step(batch)
        val = evaluate(batch)
"""),
]
