"""PF204 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Flow-Factory#172 shape: the resume happens while the model is being built
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(cfg, build_model, build_loader, loss_fn):
        accelerator = Accelerator(mixed_precision="bf16")
        model = build_model(cfg)
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        loader = build_loader(cfg)
        if cfg.resume_path is not None:
            accelerator.load_state(cfg.resume_path)  # error: PF204
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            loss = loss_fn(model, batch)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # a trainer class: load in __init__ before the prepare of the same method
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model, optimizer, loader, resume=None):
            self.accelerator = Accelerator()
            if resume:
                self.accelerator.load_state(resume)  # error: PF204
            self.model, self.optimizer, self.loader = self.accelerator.prepare(model, optimizer, loader)
"""),
]

GOOD_EXAMPLES = [
    # the fix: prepare first, then load
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(cfg, build_model, build_loader):
        accelerator = Accelerator()
        model = build_model(cfg)
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        loader = build_loader(cfg)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        if cfg.resume_path is not None:
            accelerator.load_state(cfg.resume_path)
"""),
    # tricky-correct: a registered object is restored before prepare; a load in its own
    # function; the load in the other branch of the prepare
    textwrap.dedent("""
    from accelerate import Accelerator


    class Counter:
        def __init__(self):
            self.step = 0

        def state_dict(self):
            return {"step": self.step}

        def load_state_dict(self, state):
            self.step = state["step"]


    def main(model, optimizer, loader, resume=None):
        accelerator = Accelerator()
        counter = Counter()
        accelerator.register_for_checkpointing(counter)
        if resume:
            accelerator.load_state(resume)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        return model, optimizer, loader, counter.step


    def resume(accelerator, path):
        accelerator.load_state(path)


    def setup(accelerator, model, path=None):
        if path:
            accelerator.load_state(path)
        else:
            model = accelerator.prepare(model)
        return model
"""),
]
