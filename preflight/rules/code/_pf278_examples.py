"""PF278 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning PR 19067's shape: parameter groups built before setup_module under FSDP
    textwrap.dedent("""
    import lightning as L
    import torch
    from lightning.fabric.strategies import FSDPStrategy

    fabric = L.Fabric(devices=8, strategy=FSDPStrategy(auto_wrap_policy={Block}), precision="bf16-true")
    fabric.launch()
    with fabric.init_module(empty_init=True):
        model = GPT(config)

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay}, {"params": no_decay, "weight_decay": 0.0}])  # error: PF278
    model = fabric.setup_module(model)
    optimizer = fabric.setup_optimizers(optimizer)
"""),
    # a strategy string, inside a function, and a bitsandbytes optimizer
    textwrap.dedent("""
    import bitsandbytes as bnb
    from lightning.fabric import Fabric


    def main(cfg):
        fabric = Fabric(devices=4, strategy="fsdp")
        with fabric.init_module(empty_init=True):
            net = build(cfg)
        opt = bnb.optim.AdamW8bit(net.parameters(), lr=cfg.lr)  # error: PF278
        net, opt = fabric.setup(net, opt)
"""),
]

GOOD_EXAMPLES = [
    # the fix: setup_module first, then the optimizer
    textwrap.dedent("""
    import lightning as L
    import torch
    from lightning.fabric.strategies import FSDPStrategy

    fabric = L.Fabric(devices=8, strategy=FSDPStrategy(), precision="bf16-true")
    with fabric.init_module(empty_init=True):
        model = GPT(config)
    model = fabric.setup_module(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    optimizer = fabric.setup_optimizers(optimizer)
"""),
    # tricky: DDP's empty init allocates real parameters on the device (the optimizer holds them)
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric

    fabric = Fabric(devices=4, strategy="ddp")
    with fabric.init_module(empty_init=True):
        model = GPT(config)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer = fabric.setup(model, optimizer)
"""),
    # tricky: an optimizer of another module (a probe built on the host) before the setup
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric

    fabric = Fabric(devices=4, strategy="fsdp")
    with fabric.init_module(empty_init=True):
        model = GPT(config)
    probe_opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(probe_opt, 10)
    model = fabric.setup_module(model)
"""),
]
