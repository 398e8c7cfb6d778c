"""PF129 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF129_BAD = [
    # Lightning-AI/pytorch-lightning#12789 shape: one Trainer, two models
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch.utils.data import DataLoader

    from boring import BoringModel, RandomDataset

    train_data = DataLoader(RandomDataset(32, 64), batch_size=2)
    trainer = pl.Trainer(max_epochs=5)

    model = BoringModel()
    trainer.fit(model, train_dataloaders=train_data)
    trainer.test(model, dataloaders=train_data)

    model2 = BoringModel()
    trainer.fit(model2, train_dataloaders=train_data)  # warning: PF129
    trainer.test(model2, dataloaders=train_data)
"""),
    # a sweep over learning rates with the Trainer built once
    textwrap.dedent("""
    import lightning as L

    from model import LitClassifier


    def sweep(dm, lrs):
        trainer = L.Trainer(max_epochs=10, logger=False)
        scores = {}
        for lr in lrs:
            model = LitClassifier(lr=lr)
            trainer.fit(model, datamodule=dm)  # warning: PF129
            scores[lr] = trainer.validate(model, datamodule=dm)
        return scores
"""),
]

PF129_GOOD = [
    # the fix: a Trainer per model
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torch.utils.data import DataLoader

    from boring import BoringModel, RandomDataset

    train_data = DataLoader(RandomDataset(32, 64), batch_size=2)

    model = BoringModel()
    trainer = pl.Trainer(max_epochs=5)
    trainer.fit(model, train_dataloaders=train_data)

    model2 = BoringModel()
    trainer2 = pl.Trainer(max_epochs=5)
    trainer2.fit(model2, train_dataloaders=train_data)
"""),
    # tricky-correct: training continued on the same model with a raised limit; a Trainer built in
    # the loop; fit then test of the same model
    textwrap.dedent("""
    import lightning as L

    from model import LitClassifier


    def stages(dm):
        model = LitClassifier()
        trainer = L.Trainer(max_epochs=2)
        trainer.fit(model, datamodule=dm)
        model.unfreeze_backbone()
        trainer.fit_loop.max_epochs = 6
        trainer.fit(model, datamodule=dm)
        trainer.test(model, datamodule=dm)


    def sweep(dm, lrs):
        for lr in lrs:
            model = LitClassifier(lr=lr)
            trainer = L.Trainer(max_epochs=10)
            trainer.fit(model, datamodule=dm)
"""),
]
