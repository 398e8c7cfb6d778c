"""PF451 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF451_BAD = [
    # Lightning issue 20177: the override only re-freezes the backbone
    textwrap.dedent("""
    import lightning.pytorch as pl


    class FineTuner(pl.LightningModule):
        def on_train_epoch_start(self):
            self.backbone.eval()

        def on_validation_model_train(self):  # warning: PF451
            self.backbone.eval()
"""),
    # the eval hook's twin: validation with dropout on (a public SeqModel toggling augmentation);
    # the train hook then changes nothing and is not reported
    textwrap.dedent("""
    import lightning.pytorch as pl


    class SeqModel(pl.LightningModule):
        def on_validation_model_eval(self):  # warning: PF451
            self.trainer.datamodule.data.augment_off()

        def on_validation_model_train(self):
            self.trainer.datamodule.data.augment_on()
"""),
]

PF451_GOOD = [
    # the fix: train mode back first, then the frozen part in eval
    textwrap.dedent("""
    import lightning.pytorch as pl


    class FineTuner(pl.LightningModule):
        def on_validation_model_train(self):
            self.train()
            self.backbone.eval()
"""),
    textwrap.dedent("""
    import lightning.pytorch as pl


    class FineTuner(pl.LightningModule):
        def on_validation_model_train(self):
            super().on_validation_model_train()
            self.backbone.eval()

        def on_validation_model_eval(self):
            self.trainer.model.eval()
"""),
    # an explicitly empty override (Lightning's test_hooks.py): disabling the switch is the point
    textwrap.dedent("""
    import lightning.pytorch as pl


    class HookedModel(pl.LightningModule):
        # override so that it gets called
        def on_validation_model_train(self): ...
"""),
    # a helper of the class switches the mode (EMA weights swapped in for validation)
    textwrap.dedent("""
    import lightning.pytorch as pl


    class EMAModel(pl.LightningModule):
        def _ema_apply(self):
            self.eval()
            self.ema.store(self.parameters())

        def _ema_restore(self):
            self.ema.restore(self.parameters())
            self.train()

        def on_validation_model_eval(self):
            self._ema_apply()

        def on_validation_model_train(self):
            self._ema_restore()
"""),
    # a base class that disables both switches on purpose, with docstrings
    textwrap.dedent("""
    import lightning.pytorch as pl


    class Base(pl.LightningModule):
        def on_validation_model_eval(self):
            \"\"\"The subclasses manage their modes.\"\"\"
            return None
"""),
    # a function of the same name outside a class is not the hook
    """
def on_validation_model_train(self):
    self.backbone.eval()
""",
]
