"""PF1001 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF1001`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF1001_BAD = [
    # MixMatch-pytorch PR 23: WeightEMA meant to start the model from the EMA's weights
    textwrap.dedent("""
    class WeightEMA:
        def __init__(self, model, ema_model, alpha=0.999):
            self.model = model
            self.ema_model = ema_model
            self.alpha = alpha
            self.params = list(model.state_dict().values())
            self.ema_params = list(ema_model.state_dict().values())
            for param, ema_param in zip(self.params, self.ema_params):
                param = ema_param  # warning: PF1001

        def step(self):
            for param, ema_param in zip(self.params, self.ema_params):
                ema_param.mul_(self.alpha)
                ema_param.add_(param * (1.0 - self.alpha))
"""),
    # magnitude pruning that prunes nothing
    textwrap.dedent("""
    import torch


    def prune(model, masks):
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p = p * masks[name]  # warning: PF1001
"""),
]

PF1001_GOOD = [
    # the fix: copy into the tensor
    textwrap.dedent("""
    class WeightEMA:
        def __init__(self, model, ema_model):
            self.params = list(model.state_dict().values())
            self.ema_params = list(ema_model.state_dict().values())
            for param, ema_param in zip(self.params, self.ema_params):
                param.data.copy_(ema_param.data)
"""),
    # tricky-correct: the new binding is read afterwards (MixMatch's own step())
    textwrap.dedent("""
    class WeightEMA:
        def step(self):
            one_minus_alpha = 1.0 - self.alpha
            for param, ema_param in zip(self.params, self.ema_params):
                ema_param = ema_param.float()
                param = param.float()
                ema_param.mul_(self.alpha)
                ema_param.add_(param * one_minus_alpha)
                param.mul_(1 - self.wd)
"""),
    # tricky-correct: a data loop, not a parameter loop
    textwrap.dedent("""
    def train(model, loader, opt):
        for x, y in loader:
            x = x.cuda()
            y = y.cuda()
            opt.zero_grad()
            model(x).sum().backward()
            opt.step()
"""),
    # tricky-correct: the rebound name is used after the loop (the last parameter)
    textwrap.dedent("""
    def last_weight(model):
        for p in model.parameters():
            p = p.detach()
        return p
"""),
]
