"""PF173 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_MODULE = textwrap.dedent("""
    # --- gan.py
    import lightning as L
    import torch


    class WGAN(L.LightningModule):
        def __init__(self, gen, disc):
            super().__init__()
            self.automatic_optimization = False
            self.gen, self.disc = gen, disc

        def training_step(self, batch, batch_idx):
            opt_g, opt_d = self.optimizers()
            noise = torch.randn(batch.size(0), 64, device=self.device)
            fake = self.gen(noise)
            d_loss = self.disc(fake.detach()).mean() - self.disc(batch).mean()
            opt_d.zero_grad()
            self.manual_backward(d_loss)
            opt_d.step()
            g_loss = -self.disc(fake).mean()
            opt_g.zero_grad()
            self.manual_backward(g_loss)
            opt_g.step()
            self.log_dict({"d_loss": d_loss, "g_loss": g_loss})

        def configure_optimizers(self):
            return (torch.optim.Adam(self.gen.parameters(), lr=1e-4),
                    torch.optim.Adam(self.disc.parameters(), lr=1e-4))
    """)

_TRAIN = textwrap.dedent("""
    # --- train.py
    import lightning as L

    from gan import WGAN

    model = WGAN(make_generator(), make_critic())
    trainer = L.Trainer(max_steps=200000, log_every_n_steps=50)  # warning: PF173
    trainer.fit(model, loader)
    """)

_REQ = "# --- requirements.txt\nlightning==2.1.0\n"

BAD = [
    # Lightning issue 12643: two manual optimizer steps per batch against a step budget in batches
    _MODULE + _TRAIN + _REQ,
    # no pin: a fresh install takes a release that counts every optimizer step
    _MODULE + _TRAIN,
]

GOOD = [
    # the budget counted in optimizer steps
    _MODULE + _TRAIN.replace("max_steps=200000,", "max_steps=200000 * 2,").replace("  # warning: PF173", "")
    + _REQ,
    # bounded by epochs
    _MODULE + _TRAIN.replace("max_steps=200000,", "max_epochs=50,").replace("  # warning: PF173", "") + _REQ,
    # before 1.6 global_step counted batches
    _MODULE + _TRAIN.replace("  # warning: PF173", "")
    + "# --- requirements.txt\npytorch-lightning==1.5.10\n",
    # tricky: the generator steps only every fifth batch (n_critic): the count is not a plain multiple
    _MODULE.replace("        opt_g.step()\n", "        if batch_idx % 5 == 0:\n            opt_g.step()\n")
    + _TRAIN.replace("  # warning: PF173", "") + _REQ,
    # tricky: raw optimizers (use_pl_optimizer=False) do not advance global_step
    _MODULE.replace("self.optimizers()", "self.optimizers(use_pl_optimizer=False)")
    + _TRAIN.replace("  # warning: PF173", "") + _REQ,
]
