"""PF568 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class Aligner(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            loss = self.loss_func(self(batch["x"]), batch["y"])
            return {{"validation_loss": loss}}

        def {hook}(self{args}):{pin}
            {body}
""")
_OLD = dict(hook="validation_epoch_end", args=", outputs",
            body='self.log("validation_loss", torch.stack([o["validation_loss"] for o in outputs]).mean())')
_NEW = dict(hook="on_validation_epoch_end", args="", pin="",
            body='self.log("validation_loss", torch.stack(self.validation_losses).mean())')

PF568_BAD = [
    # deepblast PR 165: validation_epoch_end with pytorch-lightning>=2.0 in requirements.txt
    _MODULE.format(pin="  # error: PF568", **_OLD) + """\
# --- requirements.txt
torch>=2.0
pytorch-lightning>=2.0
""",
    # the unified package pinned to 2.x, through a local base class
    textwrap.dedent("""
    # --- model.py
    import lightning as L


    class Base(L.LightningModule):
        pass


    class Classifier(Base):
        def training_epoch_end(self, outputs):  # error: PF568
            self.log("epoch_loss", sum(o["loss"] for o in outputs) / len(outputs))
    # --- requirements.txt
    lightning==2.2.1
"""),
]

PF568_GOOD = [
    # the fix: the Lightning 2 hook
    _MODULE.format(**_NEW) + """\
# --- requirements.txt
pytorch-lightning>=2.0
""",
    # tricky-correct: the old hook on a project pinned to 1.9, where it still exists
    _MODULE.format(pin="", **_OLD) + """\
# --- requirements.txt
pytorch-lightning==1.9.5
""",
    # no Lightning version declared: not knowable
    _MODULE.format(pin="", **_OLD),
]
