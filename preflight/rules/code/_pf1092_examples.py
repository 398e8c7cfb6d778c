"""PF1092 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(32, 2)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.net(x), y)

        def test_step(self, batch, batch_idx):
            x, y = batch
            self.log("test_acc", (self.net(x).argmax(-1) == y).float().mean())

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=2e-5)
    """)

BAD_EXAMPLES = [
    # kswamy15/NLP_Tasks_PyLightning issue 1: fit with the data module, then test() with nothing
    textwrap.dedent(_MODULE + """

if __name__ == "__main__":
    dm = make_datamodule()
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model, dm)
    trainer.test()  # error: PF1092
"""),
    # the model passed again, still without data
    textwrap.dedent(_MODULE + """

def main(dm):
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model, datamodule=dm)
    trainer.test(model)  # error: PF1092
"""),
]

GOOD_EXAMPLES = [
    # the fix: the data module is passed to test
    textwrap.dedent(_MODULE + """

def main(dm):
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model, dm)
    trainer.test(model, datamodule=dm)
"""),
    # tricky-correct: the module defines its own test_dataloader
    textwrap.dedent(_MODULE.replace("    def configure_optimizers", """    def test_dataloader(self):
        return make_test_loader()

    def configure_optimizers""") + """

def main(dm):
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model, dm)
    trainer.test()
"""),
    # tricky-correct: the class comes from a project base class that may define the loaders
    textwrap.dedent('''
        import pytorch_lightning as pl

        from base import BaseModule


        class Classifier(BaseModule):
            pass


        def main(dm):
            model = Classifier()
            trainer = pl.Trainer(max_epochs=4)
            trainer.fit(model, dm)
            trainer.test()
        '''),
    # tricky-correct: fit got no data either: the module supplies loaders some other way
    textwrap.dedent(_MODULE + """

def main():
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model)
    trainer.test(model)
"""),
    # tricky-correct: the test loader is passed positionally
    textwrap.dedent(_MODULE + """

def main(dm, test_loader):
    model = Classifier()
    trainer = pl.Trainer(max_epochs=4)
    trainer.fit(model, dm)
    trainer.test(model, test_loader)
"""),
]
