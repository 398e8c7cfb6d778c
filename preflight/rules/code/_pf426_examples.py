"""PF426 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF426_BAD = [
    textwrap.dedent("""
    import deepspeed
    import torch

    engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
    for batch in loader:
        engine.backward(engine(batch))
        torch.nn.utils.clip_grad_norm_(engine.parameters(), 1.0)  # warning: PF426
        engine.step()
"""),
    # a per-step method that a harness calls (no loop in the file), with the bare import
    textwrap.dedent("""
    import deepspeed
    from torch.nn.utils import clip_grad_norm_


    class Runner:
        def setup(self):
            self.model, self.optimizer, _, _ = deepspeed.initialize(args=self.args, model=self.net,
                                                                    model_parameters=self.net.parameters())

        def train_step(self, batch):
            loss = self.model(batch)
            self.model.backward(loss)
            clip_grad_norm_(self.model.parameters(), self.args.max_norm)  # warning: PF426
            self.model.step()
"""),
]

PF426_GOOD = [
    textwrap.dedent("""
    import deepspeed

    engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
    for batch in loader:
        engine.backward(engine(batch))
        engine.step()
"""),
    # no DeepSpeed engine: clipping by hand is how it is done
    textwrap.dedent("""
    import torch

    for x, y in loader:
        optimizer.zero_grad()
        model(x, y).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
"""),
]
