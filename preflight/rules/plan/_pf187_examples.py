"""PF187 examples: small Lightning jobs (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_MODEL = textwrap.dedent("""
    # --- fff/model.py
    from lightning.pytorch import LightningModule
    from lightning.pytorch.callbacks import ModelCheckpoint


    class FreeFormFlow(LightningModule):
        def __init__(self, hparams):
            super().__init__()
            self.save_hyperparameters(hparams)

        def compute_metrics(self, batch):
            x = batch[0]
            return {"nll_encoder": self.nll(x), "nll_decoder": self.nll(x, inverse=True), "reconstruction": x.mean()}

        def training_step(self, batch, batch_idx):
            metrics = self.compute_metrics(batch)
            for key, value in metrics.items():
                self.log(f"training/{key}", value)
            return metrics["nll_encoder"]

        def validation_step(self, batch, batch_idx):
            for key, value in self.compute_metrics(batch).items():
                self.log(f"validation/{key}", value)

        def configure_callbacks(self):
            return [ModelCheckpoint(monitor=self.hparams.checkpoint_monitor, save_last=True, mode="min")]
""")

_CONFIG = """
# --- configs/dw4.yaml
model: fff.FreeFormFlow
max_epochs: 800
checkpoint_monitor: {monitor}
batch_size: 256
# --- launch
python -m lightning_trainable.launcher.fit configs/dw4.yaml --name dw4
"""

BAD = [
    # vislearn/FFF issue 3: the config monitors validation/nll_dec, the model logs validation/nll_decoder
    _MODEL + _CONFIG.replace("{monitor}", "validation/nll_dec") + """
# --- expect
configs/dw4.yaml:3: error: PF187
""",
]

GOOD = [
    # the fix
    _MODEL + _CONFIG.replace("{monitor}", "validation/nll_decoder"),
    # tricky-correct: a key logged with a suffix Lightning adds (on_epoch), and a key logged under a
    # name preflight cannot expand
    _MODEL + _CONFIG.replace("{monitor}", "training/reconstruction_epoch"),
    _MODEL.replace('self.log(f"validation/{key}", value)', 'self.log(f"validation/{self.prefix}{key}", value)')
    + _CONFIG.replace("{monitor}", "validation/nll_dec"),
]
