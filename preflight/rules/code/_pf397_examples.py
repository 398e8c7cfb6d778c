"""PF397 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

# caikit/caikit-nlp PR 295's shape: 20 epochs asked, accumulation 4, max_steps in micro-batches
_TUNE = dedent("""
    from transformers import Trainer, TrainingArguments


    def tune(model, train_ds, num_epochs=20):
        batch_size = 8
        accumulate_steps = 4
        {steps}
        args = TrainingArguments(
            output_dir="out",
            per_device_train_batch_size=batch_size,
            max_steps=max_steps,
            gradient_accumulation_steps={accum},
        )
        Trainer(model=model, args=args, train_dataset=train_ds).train()
    """)

# Lightning issue 19684's shape: max_steps from the sample count and the batch size, accumulation 4
_FIT = dedent("""
    import lightning.pytorch as pl
    import torch
    from torch.utils.data import DataLoader, TensorDataset


    def main(model, num_epochs=10, batch_size=16):
        ds = TensorDataset(torch.randn(16000, 32), torch.randint(0, 2, (16000,)))
        loader = DataLoader(ds, batch_size=batch_size, shuffle=True, drop_last=True)
        {steps}
        trainer = pl.Trainer(max_steps=max_steps, accumulate_grad_batches={accum}, accelerator="gpu", devices=1)
        trainer.fit(model, loader)
    """)

BAD = [
    _TUNE.format(steps="max_steps = num_epochs * len(train_ds) // batch_size  # warning: PF397",
                 accum="accumulate_steps"),
    _TUNE.format(steps="steps_per_epoch = len(train_ds) // batch_size\n"
                       "    max_steps = steps_per_epoch * num_epochs  # warning: PF397",
                 accum="2"),
    _FIT.format(steps="num_steps_per_epoch = len(ds) // batch_size\n"
                      "    max_steps = num_epochs * num_steps_per_epoch  # warning: PF397",
                accum="4"),
    _FIT.format(steps="max_steps = num_epochs * len(loader)  # warning: PF397", accum="8"),
]

GOOD = [
    # the fix
    _TUNE.format(steps="max_steps = num_epochs * len(train_ds) // (batch_size * accumulate_steps)",
                 accum="accumulate_steps"),
    # tricky-correct: the accumulation written as its value; no accumulation; a literal step count
    _TUNE.format(steps="max_steps = num_epochs * len(train_ds) // (batch_size * 4)", accum="4"),
    _TUNE.format(steps="max_steps = num_epochs * len(train_ds) // batch_size", accum="1"),
    _TUNE.format(steps="max_steps = 10_000", accum="accumulate_steps"),
    # a value from the command line may be 1
    _TUNE.format(steps="max_steps = num_epochs * len(train_ds) // batch_size", accum="model.config.accum"),
    # Lightning: the fix, no accumulation, the accumulation named in the computation
    _FIT.format(steps="max_steps = num_epochs * len(ds) // (batch_size * 4)", accum="4"),
    _FIT.format(steps="max_steps = num_epochs * len(loader)", accum="1"),
    _FIT.format(steps="accum = 4\n    max_steps = num_epochs * len(loader) // accum", accum="accum"),
    # tricky: max_steps from the command line
    _FIT.format(steps="import sys\n    max_steps = int(sys.argv[1])", accum="4"),
]
