"""PF240 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF240`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF240_BAD = [
    # Lightning PR 19447's shape: the loop lives in a helper handed the fabric and the set-up objects
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric


    def train(fabric, model, optimizer, loader):
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()  # error: PF240
            optimizer.step()


    fabric = Fabric(accelerator="cuda", devices=4, precision="16-mixed")
    fabric.launch()
    model, optimizer = fabric.setup(model, optimizer)
    train(fabric, model, optimizer, fabric.setup_dataloaders(loader))
"""),
    textwrap.dedent("""
    import lightning as L

    fabric = L.Fabric(strategy="deepspeed_stage_2", precision="bf16-mixed")
    model, optimizer = fabric.setup(model, optimizer)
    for batch in loader:
        out = model(batch)
        out.loss.backward()  # error: PF240
        optimizer.step()
"""),
]

PF240_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric

    fabric = Fabric(accelerator="cuda", devices=4, precision="16-mixed")
    model, optimizer = fabric.setup(model, optimizer)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        fabric.backward(loss)
        optimizer.step()
"""),
    # tricky: full precision DDP, where loss.backward() is equivalent (no hook raises)
    textwrap.dedent("""
    from lightning.fabric import Fabric

    fabric = Fabric(accelerator="cuda", devices=2, strategy="ddp", precision="32-true")
    model, optimizer = fabric.setup(model, optimizer)
    for batch in loader:
        model(batch).backward()
        optimizer.step()
"""),
    # tricky: the precision comes from the command line
    textwrap.dedent("""
    from lightning.fabric import Fabric

    fabric = Fabric(precision=args.precision)
    model, optimizer = fabric.setup(model, optimizer)
    for batch in loader:
        model(batch).sum().backward()
"""),
    # tricky: self.fabric.backward through an attribute
    textwrap.dedent("""
    from lightning.fabric import Fabric


    class Trainer:
        def __init__(self):
            self.fabric = Fabric(precision="bf16-mixed")

        def fit(self, model, optimizer, loader):
            model, optimizer = self.fabric.setup(model, optimizer)
            for batch in loader:
                optimizer.zero_grad()
                self.fabric.backward(model(batch))
                optimizer.step()
"""),
]
