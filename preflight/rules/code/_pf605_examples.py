"""PF605 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF605`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF605_BAD = [
    # FAMO issue 4: a multi-task weighting helper clips, then calls backward itself
    textwrap.dedent("""
    import torch


    class FAMO:
        def __init__(self, n_tasks, max_norm=1.0):
            self.w = torch.zeros(n_tasks, requires_grad=True)
            self.max_norm = max_norm

        def backward(self, losses, shared_parameters=None):
            loss = (torch.softmax(self.w, -1) * losses).sum()
            if self.max_norm > 0 and shared_parameters is not None:
                torch.nn.utils.clip_grad_norm_(shared_parameters, self.max_norm)  # warning: PF605
            loss.backward()
            return loss
"""),
    # a plain loop that clips between zero_grad and backward
    textwrap.dedent("""
    import torch
    from torch.nn.utils import clip_grad_norm_


    def train(model, loader, optimizer):
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            clip_grad_norm_(model.parameters(), 1.0)  # warning: PF605
            loss.backward()
            optimizer.step()
"""),
]

PF605_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch


    class FAMO:
        def __init__(self, n_tasks, max_norm=1.0):
            self.w = torch.zeros(n_tasks, requires_grad=True)
            self.max_norm = max_norm

        def backward(self, losses, shared_parameters=None):
            loss = (torch.softmax(self.w, -1) * losses).sum()
            loss.backward()
            if self.max_norm > 0 and shared_parameters is not None:
                torch.nn.utils.clip_grad_norm_(shared_parameters, self.max_norm)
            return loss
"""),
    # tricky-correct: a rotated loop clips and steps the previous backward's gradients first
    textwrap.dedent("""
    import torch


    def train(model, loader, optimizer):
        loss = model(next(iter(loader))).mean()
        for x in loader:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            loss = model(x).mean()
            loss.backward()
"""),
    # tricky-correct: the discriminator's backward comes first, its clip before the generator's backward
    textwrap.dedent("""
    import torch


    def gan_step(D, G, d_opt, g_opt, real, z):
        d_opt.zero_grad()
        d_loss = D(G(z).detach()).mean() - D(real).mean()
        d_loss.backward()
        torch.nn.utils.clip_grad_norm_(D.parameters(), 1.0)
        d_opt.step()
        g_opt.zero_grad()
        g_loss = -D(G(z)).mean()
        g_loss.backward()
        g_opt.step()
"""),
    # the clip in the loop, the backward after the loop (a different pass), and a clip in another function
    textwrap.dedent("""
    import torch


    def finish(model, loss):
        loss.backward()


    def train(model, loader, optimizer):
        for x in loader:
            optimizer.zero_grad()
            model(x).mean().backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        final = model(loader.dataset[0]).mean()
        final.backward()
"""),
]
