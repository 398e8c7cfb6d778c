"""PF261 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch/examples issue 1029's shape: a bare UNet given the LightningModule's keys
    textwrap.dedent("""
    import torch

    from net import UNet

    ckpt = torch.load("lightning_logs/version_0/checkpoints/best.ckpt", map_location="cpu")
    net = UNet(in_ch=1, out_ch=2)
    net.load_state_dict(ckpt["state_dict"], strict=False)  # warning: PF261
    net.eval()
"""),
    # the .ckpt comes from the Hub, under an `if` that tests for the key
    textwrap.dedent("""
    import torch
    from huggingface_hub import hf_hub_download

    quantizer = LFQ(codebook_size=262144, dim=18)
    path = hf_hub_download(repo_id="org/tokenizer", filename="video_128.ckpt")
    state = torch.load(path, map_location="cpu")
    if "state_dict" in state:
        quantizer.load_state_dict(state["state_dict"], strict=False)  # warning: PF261
"""),
]

GOOD_EXAMPLES = [
    # the fix: prefix stripped, strict kept
    textwrap.dedent("""
    import torch

    ckpt = torch.load("checkpoints/best.ckpt", map_location="cpu")
    net = UNet(in_ch=1, out_ch=2)
    state = {k.removeprefix("model."): v for k, v in ckpt["state_dict"].items() if k.startswith("model.")}
    net.load_state_dict(state)
"""),
    # tricky: the LightningModule itself takes the keys; the missing keys are checked; a .pt of the
    # script's own format; a LitModel constructor
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch


    class SegModule(pl.LightningModule):
        pass


    ckpt = torch.load("epoch=9.ckpt")
    module = SegModule()
    module.load_state_dict(ckpt["state_dict"], strict=False)
    lit = LitClassifier(num_classes=10)
    lit.load_state_dict(ckpt["state_dict"], strict=False)
    net = UNet()
    missing, unexpected = net.load_state_dict(ckpt["state_dict"], strict=False)
    assert not unexpected
    own = torch.load("model_best.pt")
    net.load_state_dict(own["state_dict"], strict=False)
"""),
]
