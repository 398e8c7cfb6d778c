"""PF349 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # wiseodd/controlled-text-generation issue 15's shape: the encoder's trainer over the decoder
    dedent("""
    from torch import optim

    model = RNN_VAE(n_vocab, h_dim=64, z_dim=64, c_dim=2)
    trainer_D = optim.Adam(model.discriminator_params, lr=1e-3)
    trainer_G = optim.Adam(model.encoder_params, lr=1e-3)
    trainer_E = optim.Adam(model.decoder_params, lr=1e-3)  # warning: PF349
    """),
    # a GAN whose discriminator optimizer holds the generator, an actor-critic with swapped names
    dedent("""
    import torch


    class Agent:
        def __init__(self, netG, netD, actor, critic):
            self.optimizerD = torch.optim.Adam(netG.parameters(), lr=2e-4)  # warning: PF349
            self.optimizerG = torch.optim.Adam(netD.parameters(), lr=2e-4)  # warning: PF349
            self.actor_optimizer = torch.optim.Adam(critic.parameters(), lr=3e-4)  # warning: PF349
    """),
]

GOOD = [
    # the fix
    dedent("""
    from torch import optim

    model = RNN_VAE(n_vocab, h_dim=64, z_dim=64, c_dim=2)
    trainer_D = optim.Adam(model.discriminator_params, lr=1e-3)
    trainer_G = optim.Adam(model.decoder_params, lr=1e-3)
    trainer_E = optim.Adam(model.encoder_params, lr=1e-3)
    """),
    # tricky: ALI trains its encoder through the generator's optimizer on purpose (parameter groups)
    dedent("""
    import torch

    optimizerG = torch.optim.Adam([{"params": netE.parameters()}, {"params": netG.parameters()}], lr=1e-4)
    optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-4)
    """),
    # tricky: a VAE-GAN's generator is its decoder; a bare letter names nothing; a whole model
    dedent("""
    import torch

    opt_g = torch.optim.Adam(vae.decoder.parameters(), lr=1e-4)
    D = torch.optim.SGD(gen_head.parameters(), lr=0.1)
    opt_enc = torch.optim.Adam(model.parameters(), lr=1e-4)
    opt_dec = torch.optim.Adam(model.decoder.parameters(), lr=1e-4)
    """),
]
