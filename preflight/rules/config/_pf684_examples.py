"""PF684 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_MAIN = dedent("""
    # --- main.py
    from lightning.pytorch.cli import LightningCLI

    from datamodule import SpectraDataModule
    from model import Regressor

    if __name__ == "__main__":
        LightningCLI(Regressor, SpectraDataModule)
""")

_CONFIG = dedent("""
    # --- config.yaml
    trainer:
      max_epochs: 50
      callbacks:
        - class_path: lightning.pytorch.callbacks.LearningRateFinder{pin}
          init_args:
            update_attr: {update}
    model:
      hidden_dim: 256
      lr: 1.5e-3
    {optimizer}data:
      batch_size: 64
""")

_OPT = """optimizer:
  class_path: torch.optim.AdamW
  init_args:
    lr: 1.5e-3
"""

_W = "  # warning: PF684"

BAD = [
    # Lightning-AI/pytorch-lightning#16787: the suggestion is written to model.lr, the optimizer is the CLI's
    _MAIN + _CONFIG.format(pin=_W, update="true", optimizer=_OPT),
    # the short forms: a callback given by class name alone, the optimizer by name
    dedent("""
    # --- configs/fit.yaml
    trainer:
      callbacks:
        - class_path: LearningRateFinder  # warning: PF684
    optimizer: Adam
    """),
]

GOOD = [
    # the fix: no optimizer block, the module builds it from self.lr
    _MAIN + _CONFIG.format(pin="", update="true", optimizer=""),
    # the finder only reports
    _MAIN + _CONFIG.format(pin="", update="false", optimizer=_OPT),
    # tricky-correct: an optimizer block with a learning-rate monitor (not a finder)
    dedent("""
    # --- config.yaml
    trainer:
      callbacks:
        - class_path: lightning.pytorch.callbacks.LearningRateMonitor
          init_args:
            logging_interval: step
    optimizer:
      class_path: torch.optim.AdamW
      init_args:
        lr: 3e-4
    """),
]
