"""PF374 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_MODULE = textwrap.dedent("""
    # --- autoencoder_training.py
    import pytorch_lightning as pl
    import torch


    class AutoencoderTrainingWrapper(pl.LightningModule):
        def __init__(self, autoencoder, lr: float = 1e-4, {param}: float = 1.0):
            super().__init__()
            self.autoencoder = autoencoder
            self.lr = lr
            self.{param} = {param}
            self.automatic_optimization = False

        def configure_optimizers(self):
            return torch.optim.AdamW(self.autoencoder.parameters(), lr=self.lr)

        def training_step(self, batch, batch_idx):
            reals, _ = batch
            opt = self.optimizers()
            loss = (self.autoencoder(reals) - reals).abs().mean()
            opt.zero_grad()
            self.manual_backward(loss)
            {clip}opt.step(){pin}
            return loss
    """)

_TRAIN = textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl

    from autoencoder_training import AutoencoderTrainingWrapper
    from models import AudioAutoencoder

    model = AutoencoderTrainingWrapper(AudioAutoencoder(), lr=1e-4, {param}=1.0)
    {extra}pl.Trainer(devices=8, accelerator="gpu", strategy="ddp").fit(model)
    """)


def _project(param: str = "clip_grad_norm", clip: str = "", pin: str = "", extra: str = "") -> str:
    return _MODULE.format(param=param, clip=clip, pin=pin) + _TRAIN.format(param=param, extra=extra)


PF374_BAD = [
    # stable-audio-tools issue 110 (the held-out case): the wrapper is built with clip_grad_norm, nothing clips
    _project(pin="  # warning: PF374"),
    # another spelling of the threshold
    _project(param="gradient_clip_val", pin="  # warning: PF374"),
]

PF374_GOOD = [
    # the fix: Lightning's clip_gradients between manual_backward and step
    _project(clip='self.clip_gradients(opt, gradient_clip_val=self.clip_grad_norm, gradient_clip_algorithm="norm")'
                  "\n        "),
    # torch's clip_grad_norm_ on the module's parameters
    _project(clip="torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)\n        "),
    # tricky-correct: a callback in another file reads the threshold (and clips there)
    _project(extra="from callbacks import ClipCallback\n") + textwrap.dedent("""
        # --- callbacks.py
        import pytorch_lightning as pl


        class ClipCallback(pl.Callback):
            def on_before_optimizer_step(self, trainer, pl_module, optimizer):
                threshold = pl_module.clip_grad_norm
                pl_module.log("clip_threshold", threshold)
        """),
    # not a clipping parameter
    _project(param="ema_decay"),
]
