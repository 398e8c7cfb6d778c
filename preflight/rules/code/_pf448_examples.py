"""PF448 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # nerfacc issue 307: the scaler only multiplies the loss
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def train(radiance_field, train_dataset, max_steps=20000):
        optimizer = torch.optim.Adam(radiance_field.parameters(), lr=1e-2, eps=1e-15)
        grad_scaler = torch.cuda.amp.GradScaler(2 ** 10)
        for step in range(max_steps):
            data = train_dataset[step % len(train_dataset)]
            loss = F.smooth_l1_loss(radiance_field(data["rays"]), data["pixels"])
            optimizer.zero_grad()
            grad_scaler.scale(loss).backward()
            optimizer.step()  # warning: PF448
"""),
    # a trainer class: the scaler an attribute, update() called but never step()
    textwrap.dedent("""
    import torch
    from torch.amp import GradScaler, autocast


    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
            self.scaler = GradScaler("cuda")

        def fit(self, loader):
            for x, y in loader:
                with autocast("cuda"):
                    loss = torch.nn.functional.cross_entropy(self.model(x), y)
                self.scaler.scale(loss).backward()
                self.opt.step()  # warning: PF448
                self.scaler.update()
                self.opt.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the AMP recipe
    textwrap.dedent("""
    import torch


    def train(model, loader):
        optimizer = torch.optim.Adam(model.parameters())
        scaler = torch.cuda.amp.GradScaler()
        for x, y in loader:
            optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
"""),
    # tricky-correct: unscale_ before clipping, then the scaler steps in a helper of the file
    textwrap.dedent("""
    import torch


    def update(scaler, optimizer):
        scaler.step(optimizer)
        scaler.update()


    def train(model, loader):
        optimizer = torch.optim.Adam(model.parameters())
        scaler = torch.cuda.amp.GradScaler()
        for x, y in loader:
            optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(model(x), y)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            update(scaler, optimizer)
"""),
    # tricky-correct: the scaler disabled (fp32 run); its scale() is the identity
    textwrap.dedent("""
    import torch


    def train(model, loader, use_amp=False):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.cuda.amp.GradScaler(enabled=False)
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            scaler.scale(loss).backward()
            optimizer.step()
"""),
    # two optimizers: the scaler steps the first, the second is stepped after unscale_
    textwrap.dedent("""
    import torch


    def train(gen, disc, loader):
        opt_g = torch.optim.Adam(gen.parameters())
        opt_d = torch.optim.Adam(disc.parameters())
        scaler = torch.amp.GradScaler("cuda")
        for x in loader:
            opt_d.zero_grad()
            opt_g.zero_grad()
            scaler.scale(disc(x).mean()).backward()
            scaler.step(opt_d)
            scaler.scale(gen(x).mean()).backward()
            scaler.unscale_(opt_g)
            opt_g.step()
            scaler.update()
"""),
    # tricky-correct, after a DiLoCo-style trainer: the scaler unscales and steps the inner optimizer
    # through the `optimizer=` keyword; the outer optimizer steps every few hundred steps on
    # pseudo-gradients (the drift of the weights), which the loss scale never touched
    textwrap.dedent("""
    import torch


    def train(model, loader, snapshot, sync_every=500):
        inner = torch.optim.AdamW(model.parameters(), lr=4e-4)
        outer = torch.optim.SGD(model.parameters(), lr=0.7, momentum=0.9, nesterov=True)
        scaler = torch.cuda.amp.GradScaler()
        anchor = snapshot(model)
        for step, (x, y) in enumerate(loader):
            with torch.autocast("cuda", dtype=torch.float16):
                loss = torch.nn.functional.cross_entropy(model(x), y)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer=inner)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer=inner)
            scaler.update()
            inner.zero_grad()
            if (step + 1) % sync_every == 0:
                for old, param in zip(anchor, model.parameters()):
                    param.grad = old.to(param.device) - param.data
                    param.data.copy_(old)
                outer.step()
                outer.zero_grad()
                anchor = snapshot(model)
"""),
]
