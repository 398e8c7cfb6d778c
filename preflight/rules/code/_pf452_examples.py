"""PF452 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF452_BAD = [
    # diffusers PR 721 (train_unconditional.py before the fix)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(args):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                                  mixed_precision=args.mixed_precision)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(batch).loss
                accelerator.backward(loss)
                accelerator.clip_grad_norm_(model.parameters(), 1.0)  # warning: PF452
                optimizer.step()
                optimizer.zero_grad()
"""),
    # GenieRedux PR 2: the clip after each backward of a hand-written accumulation loop
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model, optimizer, loader, grad_accum_every=4, max_grad_norm=1.0):
            self.accelerator = Accelerator(mixed_precision="fp16")
            self.model, self.optimizer, self.loader = self.accelerator.prepare(model, optimizer, loader)
            self.grad_accum_every = grad_accum_every
            self.max_grad_norm = max_grad_norm

        def train_step(self, dl_iter):
            for _ in range(self.grad_accum_every):
                loss = self.model(next(dl_iter))
                self.accelerator.backward(loss / self.grad_accum_every)
                self.accelerator.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)  # warning: PF452
            self.optimizer.step()
            self.optimizer.zero_grad()
"""),
]

PF452_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(args):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                                  mixed_precision=args.mixed_precision)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(batch).loss
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()
"""),
    # a window of 1: every micro-step is a sync step
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=1, mixed_precision="fp16")
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(batch).loss)
            accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
"""),
    # the diffusers tutorial's config class: the window is 1
    textwrap.dedent("""
    from dataclasses import dataclass

    from accelerate import Accelerator


    @dataclass
    class TrainingConfig:
        gradient_accumulation_steps = 1
        mixed_precision = "fp16"


    def train_loop(config, model, optimizer, loader):
        accelerator = Accelerator(mixed_precision=config.mixed_precision,
                                  gradient_accumulation_steps=config.gradient_accumulation_steps)
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(batch).loss)
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()


    train_loop(TrainingConfig(), model, optimizer, loader)
"""),
    # DeepSpeed clips itself; the call only reads the norm
    textwrap.dedent("""
    from accelerate import Accelerator, DeepSpeedPlugin

    accelerator = Accelerator(gradient_accumulation_steps=8, deepspeed_plugin=DeepSpeedPlugin(zero_stage=2))
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(batch).loss)
            accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
"""),
    # the fix: clip once after the micro-batch loop; and a batch loop that steps inside itself
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model, optimizer, loader, grad_accum_every=4):
            self.accelerator = Accelerator(mixed_precision="fp16")
            self.model, self.optimizer, self.loader = self.accelerator.prepare(model, optimizer, loader)
            self.grad_accum_every = grad_accum_every

        def train_step(self, dl_iter):
            for _ in range(self.grad_accum_every):
                loss = self.model(next(dl_iter))
                self.accelerator.backward(loss / self.grad_accum_every)
            self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.optimizer.zero_grad()

        def train_epoch(self):
            for batch in self.loader:
                self.accelerator.backward(self.model(batch))
                self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.optimizer.zero_grad()
            self.optimizer.step()
"""),
]
