"""PF327 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # zhaoyingjun/chatbot issue 115's shape: the decoder optimizer copied from the encoder's
    dedent("""
    from torch import optim

    encoder1 = EncoderRNN(6000, 256)
    attn_decoder1 = AttnDecoderRNN(256, 6000)
    train_iters(encoder1, attn_decoder1, 75000,
                optim.SGD(encoder1.parameters(), lr=0.001),
                optim.SGD(encoder1.parameters(), lr=0.001))  # warning: PF327
    """),
    # a GAN whose generator optimizer steps the discriminator
    dedent("""
    import torch


    def main(netG, netD, loader):
        optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        optG = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))  # warning: PF327  # warning: PF349
        for real in loader:
            optD.zero_grad()
            d_loss(netD, netG, real).backward()
            optD.step()
            optG.zero_grad()
            g_loss(netD, netG, real).backward()
            optG.step()
    """),
]

GOOD = [
    # the fix
    dedent("""
    from torch import optim

    encoder1 = EncoderRNN(6000, 256)
    attn_decoder1 = AttnDecoderRNN(256, 6000)
    train_iters(encoder1, attn_decoder1, 75000,
                optim.SGD(encoder1.parameters(), lr=0.001),
                optim.SGD(attn_decoder1.parameters(), lr=0.001))
    """),
    # tricky: a second phase replaces the optimizer under the same name; a choice between two
    dedent("""
    import torch


    def fit(model, args):
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        warmup(model, optimizer)
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
        optimizer.step()
        if args.opt == "sgd":
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
        else:
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        opt.step()
    """),
    # tricky: the model is rebuilt between the two optimizers, and a spare optimizer never stepped
    dedent("""
    import torch


    def main(build):
        model = build("encoder")
        enc_opt = torch.optim.Adam(model.parameters())
        model = build("decoder")
        dec_opt = torch.optim.Adam(model.parameters())
        probe_opt = torch.optim.SGD(model.parameters(), lr=0.0)
        enc_opt.step()
        dec_opt.step()
    """),
    # tricky: sub-modules of one model, each with its own optimizer
    dedent("""
    import torch

    opt_e = torch.optim.Adam(model.encoder.parameters())
    opt_d = torch.optim.Adam(model.decoder.parameters())
    opt_e.step()
    opt_d.step()
    """),
]
