"""PF394 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # lightning issue 7023: a KL term started on the CPU, stacked with the CUDA reconstruction loss
    dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F


    class VAE(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, _ = batch
            recon, mu, logvar = self(x)
            losses = self.loss_terms(F.mse_loss(recon, x), mu, logvar)
            return losses.sum()

        def loss_terms(self, recon_loss, mu, logvar):
            loss_kl = torch.tensor(0.0)  # error: PF394
            if self.current_epoch >= 2:
                loss_kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
            return torch.stack([recon_loss, loss_kl])
    """),
]

GOOD = [
    # the fix
    dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F


    class VAE(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, _ = batch
            recon, mu, logvar = self(x)
            recon_loss = F.mse_loss(recon, x)
            loss_kl = torch.zeros_like(recon_loss)
            if self.current_epoch >= 2:
                loss_kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
            return torch.stack([recon_loss, loss_kl]).sum()
    """),
    # tricky: lightning issue 2585 - labels made with a device, and a CPU scalar only used in arithmetic
    dedent("""
    import lightning as L
    import torch


    class Classifier(L.LightningModule):
        def training_step(self, batch, batch_idx):
            x = batch
            labels = torch.zeros(x.shape[0], dtype=torch.long, device=self.device)
            margin = torch.tensor(0.1)
            logits = self(x)
            loss = torch.nn.functional.cross_entropy(logits, labels) + margin
            parts = torch.cat([logits.detach(), labels[:, None].float()], dim=1)
            self.log("spread", parts.std())
            return loss
    """),
]
