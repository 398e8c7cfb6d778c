"""PF531 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF531_BAD = [
    # "when I override optimizer_step it causes training_step to be skipped": a warm-up by hand
    textwrap.dedent("""
    # --- model.py
    import torch
    import pytorch_lightning as pl


    class LitClassifier(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.loss(batch)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)

        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure=None):
            step = self.trainer.global_step
            if step < 500:
                for pg in optimizer.param_groups:
                    pg["lr"] = (step + 1) / 500 * 1e-3
            optimizer.step()  # error: PF531
"""),
    # "step optimizers at arbitrary intervals" misread: the closure only every other batch
    textwrap.dedent("""
    # --- model.py
    import lightning.pytorch as L


    class LitLM(L.LightningModule):
        def training_step(self, batch, batch_idx):
            return self.model(batch).loss / 2

        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure=None):
            if (batch_idx + 1) % 2 == 0:
                optimizer.step(closure=optimizer_closure)  # error: PF531
"""),
    # an early return on some batches before the step
    textwrap.dedent("""
    # --- model.py
    import lightning.pytorch as L


    class GAN(L.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure):
            if batch_idx % 5 != 0:
                return
            optimizer.step(closure=optimizer_closure)  # error: PF531
"""),
]

PF531_GOOD = [
    # the fixes: the closure passed on, and run by itself on the batches that do not step
    textwrap.dedent("""
    # --- model.py
    import lightning.pytorch as L


    class LitLM(L.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure=None):
            if (batch_idx + 1) % 2 == 0:
                optimizer.step(closure=optimizer_closure)
            else:
                optimizer_closure()


    class Warm(L.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure=None):
            if self.trainer.global_step < 500:
                for pg in optimizer.param_groups:
                    pg["lr"] = 1e-4
            optimizer.step(closure=optimizer_closure)
"""),
    # tricky: the parent's hook receives the closure; the closure run first, then a plain step;
    # *args/**kwargs forwarding; a manual-optimization module
    textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl


    class A(pl.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure):
            if self.warmup:
                self.scale_lr(optimizer)
            super().optimizer_step(epoch, batch_idx, optimizer, optimizer_closure)


    class B(pl.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure):
            loss = optimizer_closure()
            if loss is not None:
                optimizer.step()


    class C(pl.LightningModule):
        def optimizer_step(self, *args, **kwargs):
            super().optimizer_step(*args, **kwargs)
            self.ema.update(self)


    class D(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure=None):
            optimizer.step()
"""),
    # not a LightningModule: a plain helper class with the same method name
    """
# --- trainer.py
class Loop:
    def optimizer_step(self, optimizer, closure=None):
        optimizer.step()
""",
    # tricky (real code: the pytorch-lightning 0.x base module of transformers' old examples):
    # second_order_closure, the LBFGS-only closure of 0.x/1.0, is rightly not passed
    textwrap.dedent("""
    # --- lightning_base.py
    import pytorch_lightning as pl


    class BaseTransformer(pl.LightningModule):
        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, second_order_closure=None):
            if self.trainer.use_tpu:
                xm.optimizer_step(optimizer)
            else:
                optimizer.step()
            optimizer.zero_grad()
            self.lr_scheduler.step()
"""),
]
