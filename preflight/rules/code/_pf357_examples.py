"""PF357 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAINER = textwrap.dedent("""
    import torch
    from transformers import Trainer, TrainingArguments


    class LMTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            {cast}
            outputs = model(**inputs)
            return (outputs.loss, outputs) if return_outputs else outputs.loss


    trainer = LMTrainer(model=model, args=TrainingArguments(output_dir="out", bf16=True), train_dataset=data)
    trainer.train()
""")

PF357_BAD = [
    # AiM issue 10: the model cast to bf16 when args.bf16 is set
    _TRAINER.format(cast="dtype = torch.bfloat16 if self.args.bf16 else torch.float32\n"
                         "        model = model.to(dtype=dtype)  # warning: PF357"),
    # a LightningModule casting itself
    textwrap.dedent("""
    import lightning as L
    import torch
    import torch.nn.functional as F


    class Regressor(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(32, 1)

        def training_step(self, batch, batch_idx):
            self.half()  # warning: PF357
            x, y = batch
            return F.mse_loss(self.net(x.half()).float(), y)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)
"""),
]

PF357_GOOD = [
    # the fix
    _TRAINER.format(cast="pass"),
    # tricky-correct: the inputs cast, not the model
    _TRAINER.format(cast='inputs["pixel_values"] = inputs["pixel_values"].to(torch.bfloat16)'),
    # tricky-correct: a frozen teacher cast to bf16 inside the step
    _TRAINER.format(cast="self.teacher = self.teacher.to(torch.bfloat16)"),
    # tricky-correct: 16-bit weights chosen with Lightning's true-precision mode
    textwrap.dedent("""
    import lightning as L
    import torch


    class Tiny(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(8, 1)

        def training_step(self, batch, batch_idx):
            self.bfloat16()
            return self.net(batch).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)


    L.Trainer(precision="bf16-true", max_epochs=1).fit(Tiny(), loader)
"""),
    # tricky-correct: the model cast back to float32
    _TRAINER.format(cast="model = model.to(torch.float32)"),
]
