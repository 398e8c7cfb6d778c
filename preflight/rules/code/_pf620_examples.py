"""PF620 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF620`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF620_BAD = [
    # nanoGPT issue 325: the checkpoint is written from the compiled wrapper and resumed into the plain GPT
    textwrap.dedent("""
    import torch

    from model import GPT

    model = GPT()
    if init_from == "resume":
        checkpoint = torch.load("out/ckpt.pt")
        model.load_state_dict(checkpoint["model"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    model = torch.compile(model)
    for it in range(600000):
        loss = model(*get_batch())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if it % 2000 == 0:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "out/ckpt.pt")  # warning: PF620
"""),
    # a trainer class that compiles its model in __init__ and saves it in another method
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, lr):
            self.model = torch.compile(model, mode="max-autotune")
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

        def save(self, path):
            torch.save(self.model.state_dict(), path)  # warning: PF620
"""),
]

PF620_GOOD = [
    # the fix: the uncompiled module's state is saved (it shares the weights)
    textwrap.dedent("""
    import torch

    from model import GPT

    model = GPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    raw_model = model
    model = torch.compile(model)
    for it in range(600000):
        loss = model(*get_batch())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if it % 2000 == 0:
            torch.save({"model": raw_model.state_dict(), "optimizer": optimizer.state_dict()}, "out/ckpt.pt")
"""),
    # tricky-correct: the loader strips the prefix itself (nanoGPT's resume code)
    textwrap.dedent("""
    import torch

    from model import GPT

    model = GPT()
    if init_from == "resume":
        state_dict = torch.load("out/ckpt.pt")["model"]
        unwanted_prefix = "_orig_mod."
        for k in list(state_dict):
            if k.startswith(unwanted_prefix):
                state_dict[k[len(unwanted_prefix):]] = state_dict.pop(k)
        model.load_state_dict(state_dict)
    model = torch.compile(model)
    for it in range(1000):
        model(*get_batch()).backward()
        torch.save({"model": model.state_dict()}, "out/ckpt.pt")
"""),
    # tricky-correct: in-place Module.compile() keeps the keys; the saved name was never re-bound
    textwrap.dedent("""
    import torch

    model = build_model()
    model.compile()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    torch.save(model.state_dict(), "model.pt")
"""),
    # tricky-correct: the compiled module goes under a new name; the plain one is saved
    textwrap.dedent("""
    import torch


    def train(model, loader, opt):
        compiled = torch.compile(model)
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.mse_loss(compiled(x), y).backward()
            opt.step()
        torch.save(model.state_dict(), "model.pt")
"""),
    # tricky-correct: the name is re-bound to the uncompiled module before the save
    textwrap.dedent("""
    import torch


    def run(net, loader, opt):
        raw = net
        net = torch.compile(net)
        for x, y in loader:
            opt.zero_grad()
            net(x).sum().backward()
            opt.step()
        net = raw
        torch.save(net.state_dict(), "net.pt")
"""),
]
