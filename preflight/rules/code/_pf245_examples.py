"""PF245 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF245`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

_EMA = dedent("""\
    import copy

    import torch
    import torchvision


    class ModelEMA:
        def __init__(self, model, decay=0.999):
            self.ema = copy.deepcopy(model).eval()
            self.decay = decay

        @torch.no_grad()
        def update(self, model):
            model_state = model.state_dict()
            for name, ema_v in self.ema.{entries}.items():
                model_v = model_state[name]
    {body}


    model = torchvision.models.resnet18(num_classes=10)
    ema = ModelEMA(model)
    """)

_UNGUARDED = "            ema_v.mul_(self.decay).add_(model_v.detach(), alpha=1 - self.decay)"

PF245_BAD = [
    # MixMatch-pytorch issue 27's shape: every entry, num_batches_tracked included
    _EMA.format(entries="state_dict()", body=_UNGUARDED + "  # warning: PF245"),
    # zip of two state_dicts and lerp_, BatchNorm named in the file
    dedent("""\
        import torch
        import torch.nn as nn

        net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.ReLU())
        ema_net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.ReLU())


        @torch.no_grad()
        def ema_step(decay=0.99):
            for e, p in zip(ema_net.state_dict().values(), net.state_dict().values()):
                e.lerp_(p, 1 - decay)  # warning: PF245
        """),
]

PF245_GOOD = [
    # the fix: only floating-point entries are averaged, the counters copied
    _EMA.format(entries="state_dict()", body=(
        "            if ema_v.dtype.is_floating_point:\n"
        "                ema_v.mul_(self.decay).add_(model_v.detach(), alpha=1 - self.decay)\n"
        "            else:\n"
        "                ema_v.copy_(model_v)")),
    # tricky: parameters only (always floating point)
    _EMA.format(entries="named_parameters()", body=_UNGUARDED).replace(".items()", ""),
    # tricky: not in place, the counter silently becomes a float (no error)
    _EMA.format(entries="state_dict()",
                body="            ema_v.copy_(ema_v * self.decay + (1 - self.decay) * model_v)"),
    # tricky: a transformer-only project has no integer buffers
    dedent("""\
        import torch
        import torch.nn as nn

        net = nn.TransformerEncoder(nn.TransformerEncoderLayer(256, 8, batch_first=True), 4)
        ema_net = nn.TransformerEncoder(nn.TransformerEncoderLayer(256, 8, batch_first=True), 4)


        @torch.no_grad()
        def ema_step(decay=0.99):
            for e, p in zip(ema_net.state_dict().values(), net.state_dict().values()):
                e.lerp_(p, 1 - decay)
        """),
]
