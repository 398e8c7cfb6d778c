"""PF392 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # pytorch-image-models issue 1831: ModelEma updated at the end of the epoch
    dedent("""
    import torch
    from timm.utils import ModelEma


    def fit(model, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
        model_ema = ModelEma(model, decay=0.9998)
        for epoch in range(epochs):
            for images, targets in loader:
                loss = torch.nn.functional.cross_entropy(model(images), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            model_ema.update(model)  # warning: PF392
        return model_ema.ema
    """),
    # diffusers' EMAModel stepped per epoch
    dedent("""
    from diffusers.training_utils import EMAModel


    def train(unet, loader, optimizer, epochs):
        ema_unet = EMAModel(unet.parameters(), decay=0.9999)
        for epoch in range(epochs):
            for batch in loader:
                loss = unet(batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
            ema_unet.step(unet.parameters())  # warning: PF392
    """),
]

GOOD = [
    # the fix
    dedent("""
    import torch
    from timm.utils import ModelEma


    def fit(model, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
        model_ema = ModelEma(model, decay=0.9998)
        for epoch in range(epochs):
            for images, targets in loader:
                loss = torch.nn.functional.cross_entropy(model(images), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                model_ema.update(model)
        return model_ema.ema
    """),
    # tricky: gradient accumulation - the inner loop runs micro-batches, the outer loop steps and updates once
    dedent("""
    import torch
    from torch_ema import ExponentialMovingAverage


    def fit(model, batches, accumulation):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        ema = ExponentialMovingAverage(model.parameters(), decay=0.999)
        for batch in batches:
            for micro in batch.split(accumulation):
                (model(micro).mean() / accumulation).backward()
            optimizer.step()
            optimizer.zero_grad()
            ema.update()
    """),
    # tricky: stochastic weight averaging is updated once per epoch by design
    dedent("""
    import torch
    from torch.optim.swa_utils import AveragedModel


    def fit(model, loader, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
        swa_model = AveragedModel(model)
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                optimizer.step()
            swa_model.update_parameters(model)
    """),
]
