"""PF418 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF418_BAD = [
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.validation_step_outputs = []

        def validation_step(self, batch, batch_idx):
            loss = self.loss(batch)
            self.validation_step_outputs.append(loss)  # warning: PF418
            return loss

        def on_validation_epoch_end(self):
            self.log("val_loss", torch.stack(self.validation_step_outputs).mean())
"""),
    # Lightning issue 15514 (1.x): the batch input is returned and kept for training_epoch_end
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class BigInput(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self(x), y)
            return {"loss": loss, "x": x}  # warning: PF418

        def training_epoch_end(self, outputs):
            self.log("epoch_loss", torch.stack([o["loss"] for o in outputs]).mean())
"""),
    # Quicksetup-ai PR 26 (the lightning-hydra-template shape): preds and targets returned beside the
    # loss while training_epoch_end only resets a metric; Lightning 1.x keeps them for the epoch
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def step(self, batch):
                x, y = batch
                logits = self.net(x)
                return self.criterion(logits, y), torch.argmax(logits, dim=1), y

            def training_step(self, batch, batch_idx):
                loss, preds, targets = self.step(batch)
                self.log("train/acc", self.train_acc(preds, targets), on_epoch=True)
                return {"loss": loss, "preds": preds, "targets": targets}  # warning: PF418

            def training_epoch_end(self, outputs):
                self.train_acc.reset()
        """),
    # Lightning issue 8453: the forward output returned from validation_step, the hook reads "x" only
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class Boring(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                output = self.layer(batch)
                loss = self.loss(batch, output)
                return {"x": loss, "output": output}  # warning: PF418

            def validation_epoch_end(self, outputs):
                self.log("val_loss", torch.stack([o["x"] for o in outputs]).mean())
        """),
    # the same test-time list, but the test loop runs once per checkpoint: each run's epoch-end
    # hook reads every earlier run's predictions too
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Tagger(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.predictions = []

        def test_step(self, batch, batch_idx):
            self.predictions.append(self(batch).argmax(-1).cpu())  # warning: PF418

        def on_test_epoch_end(self):
            self.log("n_pred", float(torch.cat(self.predictions).numel()))


    def evaluate_all(dm, checkpoints):
        trainer = pl.Trainer()
        for path in checkpoints:
            trainer.test(Tagger.load_from_checkpoint(path), datamodule=dm)
"""),
]

PF418_GOOD = [
    # tricky: predictions kept by test_step for one `trainer.test` after fit: the test loop runs one
    # epoch per call, so the list holds exactly that epoch (held-out-14's Hydra program)
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Tagger(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.predictions = []

        def training_step(self, batch, batch_idx):
            return self.encoder(**batch).loss

        def test_step(self, batch, batch_idx):
            self.predictions.append(self.encoder(**batch).logits.argmax(-1).cpu())

        def on_test_epoch_end(self):
            torch.save(torch.cat(self.predictions), "predictions.pt")


    def main(dm):
        model = Tagger()
        trainer = pl.Trainer(max_epochs=10)
        trainer.fit(model, datamodule=dm)
        trainer.test(model, datamodule=dm)
"""),
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.validation_step_outputs = []

        def validation_step(self, batch, batch_idx):
            loss = self.loss(batch)
            self.validation_step_outputs.append(loss)
            return loss

        def on_validation_epoch_end(self):
            self.log("val_loss", torch.stack(self.validation_step_outputs).mean())
            self.validation_step_outputs.clear()
"""),
    # re-assigned at the start of each epoch
    textwrap.dedent("""
    import lightning as L


    class Net(L.LightningModule):
        def on_train_epoch_start(self):
            self.losses = []

        def training_step(self, batch, batch_idx):
            loss = self.loss(batch)
            self.losses.append(loss.detach())
            return loss
"""),
    # 1.x: the hook reads what the step returns; a step without an epoch-end hook may return its input
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class Kept(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            return {"preds": self(x).argmax(1), "y": y}

        def validation_epoch_end(self, outputs):
            preds = torch.cat([o["preds"] for o in outputs])
            self.log("acc", (preds == torch.cat([o["y"] for o in outputs])).float().mean())

        def training_step(self, batch, batch_idx):
            x, y = batch
            return {"loss": torch.nn.functional.cross_entropy(self(x), y), "x": x}
"""),
    # tricky: the hook reads every returned key (an epoch-level metric over all predictions)
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                logits = self.net(x)
                preds = torch.argmax(logits, dim=1)
                return {"loss": self.criterion(logits, y), "preds": preds, "targets": y}

            def training_epoch_end(self, outputs):
                preds = torch.cat([o["preds"] for o in outputs])
                targets = torch.cat([o["targets"] for o in outputs])
                self.log("train/epoch_acc", (preds == targets).float().mean())
        """),
    # tricky: the hook hands the outputs to a helper that may read any key
    textwrap.dedent("""\
        import pytorch_lightning as pl


        class Segmenter(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                masks = self.net(batch["image"])
                return {"masks": masks}

            def validation_epoch_end(self, outputs):
                self.save_examples(outputs)
        """),
    # the fix of the Quicksetup-ai shape: only the loss (and a CPU copy of a metric) is returned
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                logits = self.net(x)
                loss = self.criterion(logits, y)
                acc = (torch.argmax(logits, dim=1) == y).float().mean().item()
                return {"loss": loss, "acc": acc}

            def training_epoch_end(self, outputs):
                self.train_acc.reset()
        """),
]
