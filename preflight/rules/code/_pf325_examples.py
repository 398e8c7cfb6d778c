"""PF325 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

# Lightning issue 673's shape: the plateau scheduler on the validation loss built with mode="max"
_LIGHTNING = dedent("""
    import pytorch_lightning as pl
    import torch


    class Model(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters(), lr=0.02)
            {sched}
            return {{"optimizer": optimizer, "lr_scheduler": {{"scheduler": scheduler, "monitor": "{monitor}"}}}}
    """)

# a plain PyTorch loop stepping the scheduler with its validation metric
_LOOP = dedent("""
    import torch
    from torch.optim.lr_scheduler import ReduceLROnPlateau


    def main(model, train, evaluate, epochs=30):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        {sched}
        for epoch in range(epochs):
            train(model, optimizer)
            metrics = evaluate(model)
            {step}
    """)

BAD = [
    _LIGHTNING.format(sched='scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="max", '
                            'factor=0.2, patience=2)  # warning: PF325',
                      monitor="val_loss"),
    # the default mode="min" on an accuracy handed to step
    _LOOP.format(sched="scheduler = ReduceLROnPlateau(optimizer, factor=0.5, patience=5)  # warning: PF325",
                 step='scheduler.step(metrics["val_acc"])'),
    # the mode as the second positional argument, the loss through .item()
    _LOOP.format(sched='scheduler = ReduceLROnPlateau(optimizer, "max", patience=3)  # warning: PF325',
                 step="val_loss = metrics['loss']\n        scheduler.step(val_loss.item())"),
    # the scheduler built inline in the monitor dict, mode="min" on an F1 score
    dedent("""
    import lightning.pytorch as pl
    from torch import optim


    class Tagger(pl.LightningModule):
        def configure_optimizers(self):
            opt = optim.AdamW(self.parameters(), lr=3e-5)
            return [opt], [{
                "scheduler": optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min"),  # warning: PF325
                "monitor": "val/f1",
            }]
    """),
]

GOOD = [
    # the fix
    _LIGHTNING.format(sched='scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", '
                            'factor=0.2, patience=2)',
                      monitor="val_loss"),
    _LOOP.format(sched='scheduler = ReduceLROnPlateau(optimizer, mode="max", factor=0.5, patience=5)',
                 step='scheduler.step(metrics["val_acc"])'),
    # tricky: the default "min" on a loss, "max" on an accuracy
    _LOOP.format(sched="scheduler = ReduceLROnPlateau(optimizer)",
                 step="scheduler.step(metrics['val_loss'])"),
    # tricky: the accuracy negated (or turned into an error) before it is handed to a "min" scheduler
    _LOOP.format(sched="scheduler = ReduceLROnPlateau(optimizer, 'min')",
                 step="scheduler.step(-metrics['val_acc'])\n        scheduler.step(1 - metrics['val_acc'])"),
    # tricky: a mode from the command line, a metric without a direction word, a name with both kinds
    _LOOP.format(sched="scheduler = ReduceLROnPlateau(optimizer, mode=args.mode)",
                 step="scheduler.step(metrics['val_acc'])"),
    _LOOP.format(sched="scheduler = ReduceLROnPlateau(optimizer, mode='max')",
                 step="scheduler.step(metrics['score'])\n        scheduler.step(metrics['neg_loss'])"),
    # tricky: Keras' callback has its own monitor and mode
    dedent("""
    from tensorflow.keras.callbacks import ReduceLROnPlateau

    cb = ReduceLROnPlateau(monitor="val_accuracy", factor=0.5, patience=3)
    model.fit(x, y, callbacks=[cb])
    """),
    # tricky: two plateau schedulers under one name in two functions, each stepped with its own metric
    dedent("""
    from torch.optim.lr_scheduler import ReduceLROnPlateau


    def fit_classifier(opt, evaluate):
        scheduler = ReduceLROnPlateau(opt, mode="max")
        scheduler.step(evaluate()["acc"])


    def fit_regressor(opt, evaluate):
        scheduler = ReduceLROnPlateau(opt, mode="min")
        scheduler.step(evaluate()["mse"])
    """),
]
