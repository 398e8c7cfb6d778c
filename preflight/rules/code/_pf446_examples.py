"""PF446 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_GAN = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class SRGAN(pl.LightningModule):
        def __init__(self, generator, discriminator, max_grad_norm=1.0):
            super().__init__()
            self.generator = generator
            self.discriminator = discriminator
            self.max_grad_norm = max_grad_norm
            self.automatic_optimization = False

        def configure_optimizers(self):
            return [torch.optim.Adam(self.generator.parameters()), torch.optim.Adam(self.discriminator.parameters())]

        def training_step(self, batch, batch_idx):
            lr_imgs, hr_imgs = batch
            opt_g, opt_d = self.optimizers()
            fake_logits = self.discriminator(self.generator(lr_imgs).detach())
            d_loss = F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits))
            opt_d.zero_grad()
            self.manual_backward(d_loss)
    {clip}
            opt_d.step()


    def fit(generator, discriminator, datamodule):
        trainer = pl.Trainer(max_epochs=100, precision={precision})
        trainer.fit(SRGAN(generator, discriminator), datamodule=datamodule)
""")

BAD_EXAMPLES = [
    # ESAOpenSR SRGAN PR 88: the discriminator clipped on scaled gradients under 16-mixed
    _GAN.format(clip="        torch.nn.utils.clip_grad_norm_(self.discriminator.parameters(), self.max_grad_norm)"
                     "  # warning: PF446", precision='"16-mixed"'),
    # the integer spelling, a value clip imported by name
    _GAN.format(clip="        clip_grad_value_(self.discriminator.parameters(), 0.5)  # warning: PF446",
                precision="16").replace("from torch.nn import functional as F",
                                        "from torch.nn import functional as F\nfrom torch.nn.utils import clip_grad_value_"),
    # Lightning issue 18089: the docs' own `self.clip_gradients` does not unscale either (until det69 it was
    # taken for the fix)
    _GAN.format(clip="        self.clip_gradients(opt_d, gradient_clip_val=self.max_grad_norm, gradient_clip_algorithm=\"norm\")"
                     "  # warning: PF446", precision='"16-mixed"'),
]

GOOD_EXAMPLES = [
    # bf16 has no loss scale
    _GAN.format(clip="        torch.nn.utils.clip_grad_norm_(self.discriminator.parameters(), self.max_grad_norm)",
                precision='"bf16-mixed"'),
    # tricky-correct: clipped in on_before_optimizer_step, which Lightning calls after unscaling
    _GAN.format(clip="        pass", precision='"16-mixed"').replace(
        "\n\n\ndef fit(", "\n\n    def on_before_optimizer_step(self, optimizer):\n"
        "        self.clip_gradients(optimizer, gradient_clip_val=self.max_grad_norm, gradient_clip_algorithm=\"norm\")\n"
        "\n\ndef fit(", 1),
    # unscaled by hand before the clip
    _GAN.format(clip="        self.trainer.precision_plugin.scaler.unscale_(opt_d)\n"
                     "        torch.nn.utils.clip_grad_norm_(self.discriminator.parameters(), self.max_grad_norm)",
                precision='"16-mixed"'),
    _GAN.format(clip="        self.trainer.precision_plugin.scaler.unscale_(opt_d)\n"
                     "        self.clip_gradients(opt_d, gradient_clip_val=self.max_grad_norm, gradient_clip_algorithm=\"norm\")",
                precision='"16-mixed"'),
]
