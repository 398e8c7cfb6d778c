"""PF405 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF405_BAD = [
    textwrap.dedent("""
        # --- train.py
        import torch
        import lightning as L

        class GAN(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                loss = self(batch).mean()
                self.manual_backward(loss)
                opt.step()
                opt.zero_grad()

        trainer = L.Trainer(devices=2, accumulate_grad_batches=4)  # error: PF405
        trainer.fit(GAN())
        """),
    # the module and the Trainer in two files, the clip value in a Hydra config
    textwrap.dedent("""
        # --- model.py
        import lightning as L

        class Module(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()
        # --- configs/trainer/default.yaml
        _target_: lightning.pytorch.trainer.Trainer
        max_epochs: 10
        gradient_clip_val: 0.5  # error: PF405
        """),
    # held-out-5's SPT launcher: the clip value is a parameter of main() with a literal default
    textwrap.dedent("""
        # --- train.py
        import lightning as L


        class SPT(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()


        def main(loader, max_epochs=100, cfg_clip=1.0):
            trainer = L.Trainer(max_epochs=max_epochs, gradient_clip_val=cfg_clip)  # error: PF405
            trainer.fit(SPT(), loader)
        """),
]

PF405_BAD.append(
    # threestudio issue 59: the Trainer's options spread from the run's YAML (`Trainer(**cfg.trainer)`)
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Fantasia3D(pl.LightningModule):
            def __init__(self, cfg):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                opt.zero_grad()
                self.manual_backward(self(batch).mean())
                opt.step()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Fantasia3D

        cfg = OmegaConf.load("configs/fantasia3d.yaml")
        trainer = pl.Trainer(accelerator="gpu", devices=1, **cfg.trainer)
        trainer.fit(Fantasia3D(cfg.system))
        # --- configs/fantasia3d.yaml
        system:
          lr: 0.01
        trainer:
          max_steps: 10000
          accumulate_grad_batches: 8  # error: PF405
        """))

PF405_GOOD = [
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class GAN(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                self.clip_gradients(opt, gradient_clip_val=0.5)
                if (batch_idx + 1) % 4 == 0:
                    opt.step()
                    opt.zero_grad()

        trainer = L.Trainer(devices=2, accumulate_grad_batches=1)
        trainer.fit(GAN())
        """),
    # automatic optimization: the flags are Lightning's job
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class Classifier(L.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()

        trainer = L.Trainer(accumulate_grad_batches=8, gradient_clip_val=1.0)
        trainer.fit(Classifier())
        """),
    # two modules: the Trainer with flags fits the automatic one
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class Manual(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()

        class Auto(L.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()

        model = Auto()
        trainer = L.Trainer(accumulate_grad_batches=8)
        trainer.fit(model)
        """),
    # a caller passes the clip value: not known statically
    textwrap.dedent("""
        # --- train.py
        import lightning as L


        class SPT(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()


        def main(loader, max_epochs=100, cfg_clip=1.0):
            trainer = L.Trainer(max_epochs=max_epochs, gradient_clip_val=cfg_clip)
            trainer.fit(SPT(), loader)


        main(loader, cfg_clip=None)
        """),
]

PF405_GOOD.extend([
    # the fix of threestudio issue 59: automatic optimization, the accumulation spread from the YAML
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Fantasia3D(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Fantasia3D

        cfg = OmegaConf.load("configs/fantasia3d.yaml")
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(Fantasia3D())
        # --- configs/fantasia3d.yaml
        trainer:
          accumulate_grad_batches: 8
        """),
    # tricky-correct: manual optimization, and the spread node of the YAML has no active flag (another
    # node of the same file does, but the Trainer never reads it)
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Gan(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                opt.zero_grad()
                self.manual_backward(self(batch).mean())
                opt.step()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Gan

        cfg = OmegaConf.load("configs/gan.yaml")
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(Gan())
        # --- configs/gan.yaml
        trainer:
          max_epochs: 10
          accumulate_grad_batches: 1
        finetune:
          accumulate_grad_batches: 4
        """),
])
