"""PF205 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # audiolm-pytorch#44 shape: a tracker named, logged to every step, never initialised
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, loader, steps, lr=2e-4):
        accelerator = Accelerator(log_with="tensorboard", logging_dir="./results")  # warning: PF205
        optim = torch.optim.Adam(model.parameters(), lr=lr)
        model, optim, loader = accelerator.prepare(model, optim, loader)
        for step, batch in enumerate(loader):
            loss = model(batch)
            accelerator.backward(loss)
            optim.step()
            optim.zero_grad()
            accelerator.log({"loss": loss.item()}, step=step)
"""),
    # a trainer class with a list of trackers
    textwrap.dedent("""
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, model):
            self.accelerator = Accelerator(log_with=["wandb", "tensorboard"], project_dir="runs")  # warning: PF205
            self.model = self.accelerator.prepare(model)

        def step(self, loss, step):
            self.accelerator.backward(loss)
            self.accelerator.log({"train/loss": loss.item()}, step=step)
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    from accelerate import Accelerator


    def train(model, loader, config):
        accelerator = Accelerator(log_with="tensorboard", project_dir="./results")
        accelerator.init_trackers("soundstream", config=config)
        model, loader = accelerator.prepare(model, loader)
        for step, batch in enumerate(loader):
            loss = model(batch)
            accelerator.backward(loss)
            accelerator.log({"loss": loss.item()}, step=step)
        accelerator.end_training()
"""),
    # tricky-correct: trackers started through a helper, log_with=None, kwargs, no log call at all
    textwrap.dedent("""
    from accelerate import Accelerator


    def build(cfg, extra):
        return Accelerator(log_with=cfg.report_to)


    def start(accelerator, cfg):
        getattr(accelerator, "init_trackers")(cfg.project, config=dict(cfg))


    def run(model, loader, extra):
        plain = Accelerator(log_with=None)
        other = Accelerator(**extra)
        plain.log({"x": 1.0})
        other.log({"x": 1.0})
        return plain, other
"""),
    textwrap.dedent("""
    from accelerate import Accelerator


    def make_accelerator(args):
        # the caller starts the trackers: this file never logs
        return Accelerator(log_with="wandb", gradient_accumulation_steps=args.accum)
"""),
]
