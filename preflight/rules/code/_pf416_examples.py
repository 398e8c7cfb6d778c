"""PF416 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF416_BAD = [
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")  # warning: PF416
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    total_batch_size = args.train_batch_size * accelerator.num_processes * args.gradient_accumulation_steps
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # e2-tts-pytorch PR 24: the trainer's window parameter never reaches the Accelerator, which
    # receives only the splatted accelerate_kwargs
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model, optimizer, grad_accumulation_steps=1, accelerate_kwargs: dict = dict()):
            self.accelerator = Accelerator(log_with="tensorboard", **accelerate_kwargs)  # warning: PF416
            self.grad_accumulation_steps = grad_accumulation_steps
            self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

        def train(self, loader):
            for batch in loader:
                with self.accelerator.accumulate(self.model):
                    self.accelerator.backward(self.model(batch))
                    self.optimizer.step()
                    self.optimizer.zero_grad()
"""),
]

PF416_GOOD = [
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the Accelerator comes from elsewhere: `accelerate launch --gradient_accumulation_steps` may set it
    """
def train(accelerator, model, optimizer, loader):
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
""",
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(**accelerator_kwargs)
    with accelerator.accumulate(model):
        accelerator.backward(loss)
"""),
    # the fix of the splatted shape: the window parameter is passed beside the kwargs
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model, optimizer, grad_accumulation_steps=1, accelerate_kwargs: dict = dict()):
            self.accelerator = Accelerator(gradient_accumulation_steps=grad_accumulation_steps, **accelerate_kwargs)
            self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

        def train(self, loader):
            for batch in loader:
                with self.accelerator.accumulate(self.model):
                    self.accelerator.backward(self.model(batch))
                    self.optimizer.step()
                    self.optimizer.zero_grad()
"""),
]
