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
    # held-out-43, RAVE issue 219 (rave/model.py): the requirements list pytorch_lightning with no version,
    # so a fresh install gets 2.x
    _MODULE.format(pin="  # error: PF568", **_OLD) + """\
# --- requirements.txt
torch>=1.13
torchaudio
pytorch_lightning
gin-config
""",
    # held-out-43, CTCNet issue 8 (look2hear/system/av_litmodule.py): on_epoch_end, removed in 1.8, with a range
    # capped at 2.0 that installs 1.9
    textwrap.dedent("""
    # --- look2hear/system/av_litmodule.py
    import pytorch_lightning as pl
    import torch


    class AudioVisualLightningModule(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.validation_step_outputs.append(self.loss_func(self(batch[0]), batch[1]))

        def on_epoch_end(self):  # error: PF568
            self.log("val_loss", torch.stack(self.validation_step_outputs).mean(), sync_dist=True)
            self.validation_step_outputs.clear()
    # --- requirements.txt
    pytorch-lightning>=1.7,<2.0
    torch==1.13.1
"""),
]

PF568_GOOD = [
    # det114: the RAVE fix, pytorch_lightning pinned to 1.9.0
    _MODULE.format(pin="", **_OLD) + """\
# --- requirements.txt
torch>=1.13
pytorch_lightning==1.9.0
""",
    # the CTCNet fix: on_validation_epoch_end under the same range
    textwrap.dedent("""
    # --- av_litmodule.py
    import pytorch_lightning as pl
    import torch


    class AudioVisualLightningModule(pl.LightningModule):
        def on_validation_epoch_end(self):
            self.log("val_loss", torch.stack(self.validation_step_outputs).mean(), sync_dist=True)
            self.validation_step_outputs.clear()
    # --- requirements.txt
    pytorch-lightning>=1.7,<2.0
"""),
    # tricky-correct (det114): on_epoch_end with a range capped below 1.8 (1.7.x still calls it)
    textwrap.dedent("""
    # --- av_litmodule.py
    import pytorch_lightning as pl


    class AudioVisualLightningModule(pl.LightningModule):
        def on_epoch_end(self):
            self.log("lr", self.optimizer.param_groups[0]["lr"])
    # --- requirements.txt
    pytorch-lightning>=1.6,<1.8
"""),
    # tricky-correct (det114): Lightning unpinned but torch pinned to 1.10, which Lightning 2.0 (torch>=1.11)
    # does not accept: pip resolves a 1.x Lightning that still calls validation_epoch_end
    _MODULE.format(pin="", **_OLD) + """\
# --- requirements.txt
torch==1.10.2
pytorch-lightning
""",
    # tricky-correct (det114): on_epoch_end on a Callback, not the module (a 1.x callback hook)
    textwrap.dedent("""
    # --- callbacks.py
    import pytorch_lightning as pl


    class Printer(pl.Callback):
        def on_epoch_end(self, trainer, pl_module):
            print(trainer.current_epoch)
    # --- requirements.txt
    pytorch-lightning>=1.7,<1.8
"""),
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
