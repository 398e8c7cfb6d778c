"""PF611 examples: small projects (``# --- <path>`` sections); bad ones must fire on the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAINER = textwrap.dedent("""
    # --- trainer.py
    import deepspeed
    import torch


    class Trainer:
        def __init__(self, model, train_loader, eval_loader):
            self.engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                        config="ds_config.json")
            self.train_loader = train_loader
            self.eval_loader = eval_loader

        {decorator}
        def evaluate(self):
            losses = [self.engine(**batch).loss for batch in self.eval_loader]
            return torch.stack(losses).mean().item()

        def train(self):
            for step, batch in enumerate(self.train_loader):
                loss = self.engine(**batch).loss
                self.engine.backward(loss)
                self.engine.step()
                if step % 500 == 0:
                    print(self.evaluate())
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 4, "bf16": {{"enabled": true}}, "zero_optimization": {{"stage": {stage}}}}}
    # --- launch
    deepspeed --num_gpus 8 trainer.py
""")

PF611_BAD = [
    # ArcticTraining PR 265: evaluation under inference_mode between ZeRO-3 training steps
    _TRAINER.format(decorator="@torch.inference_mode()  # error: PF611", stage=3),
    # the context-manager form
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch


    def main(model, loader, val_batch):
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config="ds_config.json")
        for step, batch in enumerate(loader):
            engine.backward(engine(**batch).loss)
            engine.step()
            if step % 100 == 0:
                with torch.inference_mode():  # error: PF611
                    print(engine(**val_batch).loss.item())
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 8 train.py
"""),
]

PF611_GOOD = [
    # the fix: no_grad
    _TRAINER.format(decorator="@torch.no_grad()", stage=3),
    # tricky-correct: ZeRO-2 keeps whole parameters on every rank; nothing gathered outlives the forward
    _TRAINER.format(decorator="@torch.inference_mode()", stage=2),
]
