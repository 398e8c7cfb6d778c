"""PF102 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward(retain_graph=True)  # warning: PF102
        opt.step()
"""),
    # the classic: silencing "backward through the graph a second time" in an RNN
    textwrap.dedent("""
    import torch

    rnn = torch.nn.GRU(8, 16)
    head = torch.nn.Linear(16, 1)
    opt = torch.optim.Adam([*rnn.parameters(), *head.parameters()])
    hidden = torch.zeros(1, 4, 16)
    for x, y in loader:
        opt.zero_grad()
        out, hidden = rnn(x, hidden)
        loss = torch.nn.functional.mse_loss(head(out), y)
        loss.backward(retain_graph=True)  # warning: PF102
        opt.step()
"""),
]

GOOD_EXAMPLES = [
    # 1. two losses through one graph
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        out = model(x)
        loss_a = out[:, 0].mean()
        loss_b = out[:, 1].pow(2).mean()
        loss_a.backward(retain_graph=True)
        loss_b.backward()
        opt.step()
"""),
    # 2. gradient penalty with autograd.grad
    textwrap.dedent("""
    import torch

    D = torch.nn.Linear(8, 1)
    opt = torch.optim.Adam(D.parameters())
    for real in loader:
        opt.zero_grad()
        real.requires_grad_(True)
        score = D(real).mean()
        score.backward(retain_graph=True)
        (grad,) = torch.autograd.grad(score, real, create_graph=True)
        grad.norm().backward()
        opt.step()
"""),
    # 3. retain_graph computed per iteration
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        out = model(x)
        for k in range(3):
            out[:, k].mean().backward(retain_graph=k < 2)
        opt.step()
"""),
    # 4. not in a loop
    textwrap.dedent("""
    import torch

    def step(model, x):
        loss = model(x).mean()
        loss.backward(retain_graph=True)
        return loss
"""),
    # 5. retain_graph=False
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        model(x).mean().backward(retain_graph=False)
        opt.step()
"""),
    # 6. the loss is handed to a helper preflight cannot see
    textwrap.dedent("""
    import torch
    from mylib import second_order_step

    model = torch.nn.Linear(10, 1)
    for x, y in loader:
        loss = model(x).mean()
        loss.backward(retain_graph=True)
        second_order_step(model, loss)
"""),
]
