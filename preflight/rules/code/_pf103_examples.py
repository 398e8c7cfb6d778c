"""PF103 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # DAB-DETR issue 58: the AMP branch clears the gradients, the fp32 branch does not
    textwrap.dedent("""\
        import torch


        def train_one_epoch(model, criterion, data_loader, optimizer, args):
            scaler = torch.cuda.amp.GradScaler(enabled=args.amp)
            for samples, targets in data_loader:
                with torch.cuda.amp.autocast(enabled=args.amp):
                    losses = criterion(model(samples), targets)
                if args.amp:
                    optimizer.zero_grad()
                    scaler.scale(losses).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    losses.backward()
                    optimizer.step()  # error: PF103
        """),
    # 1. the classic: no zero_grad at all
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()  # error: PF103
"""),
    # 2. a GAN zeroing one of its two optimizers (FN-9)
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    G, D = nn.Linear(8, 8), nn.Linear(8, 1)
    opt_g = torch.optim.Adam(G.parameters())
    opt_d = torch.optim.Adam(D.parameters())
    for real in loader:
        fake = G(torch.randn(4, 8))
        d_loss = D(real).mean() - D(fake.detach()).mean()
        d_loss.backward()
        opt_d.step()  # error: PF103
        opt_g.zero_grad()
        g_loss = -D(fake).mean()
        g_loss.backward()
        opt_g.step()
"""),
    # 3. Fabric leaves zero_grad to the user (FN-6)
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric

    fabric = Fabric()
    model = torch.nn.Linear(10, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer = fabric.setup(model, optimizer)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        fabric.backward(loss)
        optimizer.step()  # error: PF103
"""),
    # 4. Lightning manual optimization without zero_grad (FN-7)
    textwrap.dedent("""
    import torch
    import lightning as L

    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.g = torch.nn.Linear(8, 8)
            self.d = torch.nn.Linear(8, 1)

        def training_step(self, batch, batch_idx):
            opt_g, opt_d = self.optimizers()
            d_loss = self.d(batch).mean()
            self.manual_backward(d_loss)
            opt_d.step()  # error: PF103

        def configure_optimizers(self):
            return torch.optim.Adam(self.g.parameters()), torch.optim.Adam(self.d.parameters())
"""),
    # 5. zeroed once per epoch, stepped every batch
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(10):
        optimizer.zero_grad()
        for x, y in loader:
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            optimizer.step()  # error: PF103
"""),
    # held-out-4 (aihwkit examples/01_simple_layer.py): a module-level example loop; the optimizer
    # is a third-party class named after SGD, built over the model's parameters
    textwrap.dedent("""
    from torch import Tensor
    from torch.nn.functional import mse_loss
    from aihwkit.nn import AnalogLinear
    from aihwkit.optim import AnalogSGD

    model = AnalogLinear(4, 2, bias=True)
    opt = AnalogSGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        loss = mse_loss(model(x), y)
        loss.backward()
        opt.step()  # error: PF103
"""),
    # held-out-4 (idinvert training_loop): two optimizers passed in as parameters, one of them
    # never zeroed
    textwrap.dedent("""
    import torch.nn.functional as F


    def training_loop(E, D, loader, optimizer_E, optimizer_D, epochs):
        for epoch in range(epochs):
            for x in loader:
                loss_d = F.softplus(D(E(x).detach())).mean()
                loss_d.backward()
                optimizer_D.step()  # error: PF103
                optimizer_E.zero_grad()
                loss_e = F.softplus(-D(E(x))).mean()
                loss_e.backward()
                optimizer_E.step()
"""),
    # tt-blacksmith PR 711: a per-batch step method of a Trainer class, called from fit's loop,
    # steps self.optimizer and nothing in the class ever zeroes it
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, lr):
            self.model = model
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
            self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: min(1.0, s / 100))

        def train_step(self, batch):
            loss = self.model(**batch).loss
            loss.backward()
            self.optimizer.step()  # error: PF103
            self.scheduler.step()
            return loss.item()

        def fit(self, loader, steps):
            for step, batch in enumerate(loader):
                self.train_step(batch)
                if step >= steps:
                    break
"""),
]

GOOD_EXAMPLES = [
    # tricky: SWALR is a learning-rate scheduler (torch.optim.swa_utils), stepped once per epoch after the
    # batch loop; the optimizer is cleared per batch (mosaicml/composer issue 624's SWA loop)
    textwrap.dedent("""\
        import torch
        import torch.nn.functional as F
        from torch.optim.swa_utils import SWALR, AveragedModel


        def fit(model, loader, epochs, swa_start):
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            swa_model = AveragedModel(model)
            swa_scheduler = SWALR(optimizer, swa_lr=0.05)
            for epoch in range(epochs):
                for x, y in loader:
                    optimizer.zero_grad()
                    F.cross_entropy(model(x), y).backward()
                    optimizer.step()
                if epoch >= swa_start:
                    swa_model.update_parameters(model)
                    swa_scheduler.step()
            return swa_model
        """),
    # tricky: both sides of the AMP if/else clear (DINO's engine.py after the DAB-DETR fix)
    textwrap.dedent("""\
        import torch


        def train_one_epoch(model, criterion, data_loader, optimizer, args):
            scaler = torch.cuda.amp.GradScaler(enabled=args.amp)
            for samples, targets in data_loader:
                with torch.cuda.amp.autocast(enabled=args.amp):
                    losses = criterion(model(samples), targets)
                if args.amp:
                    optimizer.zero_grad()
                    scaler.scale(losses).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    optimizer.zero_grad()
                    losses.backward()
                    optimizer.step()
        """),
    # tricky: the clear is after the if/else, on every path
    textwrap.dedent("""\
        import torch


        def train_one_epoch(model, loader, optimizer, scaler, use_amp):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                if use_amp:
                    scaler.scale(loss).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    loss.backward()
                    optimizer.step()
                optimizer.zero_grad(set_to_none=True)
        """),
    # 1. zero_grad before backward
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 2. p.grad = None loop (FP-3)
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        for p in model.parameters():
            p.grad = None
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 3. model.zero_grad()
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        model.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    # 4. gradient accumulation: cleared at the boundary
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    for i, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x), y) / 4
        loss.backward()
        if (i + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 5. fresh leaf and fresh optimizer per iteration (diffusers pix2pix-zero)
    textwrap.dedent("""
    import torch

    for t in timesteps:
        x_in = latents.detach().clone()
        x_in.requires_grad = True
        opt = torch.optim.SGD([x_in], lr=0.1)
        with torch.enable_grad():
            loss = unet(x_in, t).pow(2).mean()
            loss.backward()
            opt.step()
        latents = x_in.detach()
"""),
    # 6. a GAN zeroing each optimizer
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    G, D = nn.Linear(8, 8), nn.Linear(8, 1)
    opt_g = torch.optim.Adam(G.parameters())
    opt_d = torch.optim.Adam(D.parameters())
    for real in loader:
        fake = G(torch.randn(4, 8))
        opt_d.zero_grad()
        (D(real).mean() - D(fake.detach()).mean()).backward()
        opt_d.step()
        opt_g.zero_grad()
        (-D(fake).mean()).backward()
        opt_g.step()
"""),
    # 7. Lightning manual optimization with zero_grad
    textwrap.dedent("""
    import torch
    import lightning as L

    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.net = torch.nn.Linear(8, 1)

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(self.net(batch).mean())
            opt.step()
"""),
    # 8. LBFGS: the closure clears the gradients
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(4, 1)
    opt = torch.optim.LBFGS(model.parameters())
    for x, y in loader:
        def closure():
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            return loss
        opt.step(closure)
"""),
    # 9. a helper clears the gradients
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def reset(m):
        for p in m.parameters():
            p.grad = None

    for x, y in loader:
        reset(model)
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
"""),
    # 10. Accelerate: zero_grad under accelerator.accumulate
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = ((model(x) - y) ** 2).mean()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the fixes of the two held-out-4 shapes, and names that are settings, not optimizers
    textwrap.dedent("""
    from torch.nn.functional import mse_loss
    from aihwkit.nn import AnalogLinear
    from aihwkit.optim import AnalogSGD

    model = AnalogLinear(4, 2, bias=True)
    opt = AnalogSGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        opt.zero_grad()
        loss = mse_loss(model(x), y)
        loss.backward()
        opt.step()
"""),
    textwrap.dedent("""
    import torch.nn.functional as F


    def training_loop(E, D, loader, optimizer_E, optimizer_D, epochs):
        for epoch in range(epochs):
            for x in loader:
                optimizer_D.zero_grad()
                loss_d = F.softplus(D(E(x).detach())).mean()
                loss_d.backward()
                optimizer_D.step()
                optimizer_E.zero_grad()
                loss_e = F.softplus(-D(E(x))).mean()
                loss_e.backward()
                optimizer_E.step()
"""),
    # `optimizer_cfg` names a setting; a `*Scheduler` is not built over parameters
    """
def train(model, loader, optimizer_cfg, sched_opt):
    for x in loader:
        model(x).sum().backward()
        optimizer_cfg.step()
        sched_opt.step()
""",
    # the fix, and a tricky-correct twin: the step method is called per batch and the class zeroes
    # the optimizer in another method the loop calls; a one-off step method that no loop calls
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, lr):
            self.model = model
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

        def train_step(self, batch):
            self.model(**batch).loss.backward()
            self.optimizer.step()

        def clear(self):
            self.optimizer.zero_grad(set_to_none=True)

        def fit(self, loader):
            for batch in loader:
                self.clear()
                self.train_step(batch)


    class Probe:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def one_update(self, x):
            self.model(x).sum().backward()
            self.optimizer.step()
"""),
]
