"""PF108 / PF109 executable documentation: programs that must (and must not) fire."""

from __future__ import annotations

import textwrap

PF108_BAD = (
    # 1. The classic: step every 4 micro-batches, the loss is never divided.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    accum_steps = 4
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()  # error: PF108
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
"""),
    # 2. AMP with a GradScaler inside a user class that happens to be called Trainer (FN-1).
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Trainer:
        def __init__(self, model, accum):
            self.model = model
            self.accum = accum
            self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            self.scaler = torch.cuda.amp.GradScaler()

        def fit(self, loader):
            for step, (x, y) in enumerate(loader):
                with torch.autocast("cuda"):
                    loss = nn.functional.cross_entropy(self.model(x), y)
                self.scaler.scale(loss).backward()  # warning: PF108
                if (step + 1) % self.accum == 0:
                    self.scaler.step(self.opt)
                    self.scaler.update()
                    self.opt.zero_grad()


    Trainer(nn.Linear(8, 2), 8).fit(loader)
"""),
    # 3. Fabric leaves the scaling to the user.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from lightning.fabric import Fabric

    fabric = Fabric()
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = fabric.setup(model, opt)
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        fabric.backward(loss)  # error: PF108
        if i % 8 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # held-out-4 (nanoGPT train.py): an inner micro-step loop of backward passes, the step after
    # it in the enclosing loop, the optimizer from `model.configure_optimizers(...)`
    textwrap.dedent("""\
    import torch

    from model import GPT

    model = GPT()
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cuda")
    scaler = torch.cuda.amp.GradScaler()
    while True:
        for micro_step in range(gradient_accumulation_steps):
            logits, loss = model(X, Y)
            X, Y = get_batch("train")
            scaler.scale(loss).backward()  # warning: PF108
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
"""),
    # neural_sp issue 168: a counter window (count up, step and reset at N) instead of a modulus
    textwrap.dedent("""\
    import torch


    def train_one_epoch(model, optimizer, loader, accum_grad_n_steps):
        accum_n_steps = 0
        optimizer.zero_grad()
        for batch in loader:
            loss = model(batch)
            accum_n_steps += 1
            loss.backward()  # warning: PF108
            if accum_n_steps >= accum_grad_n_steps:
                optimizer.step()
                optimizer.zero_grad()
                accum_n_steps = 0
"""),
    # Lightning issue 14527: manual optimization steps every N batches on the undivided loss of
    # a helper that unpacks the step's batch into the model
    textwrap.dedent("""\
    import pytorch_lightning as pl
    import torch


    class GenModule(pl.LightningModule):
        def __init__(self, model, accumulate=32):
            super().__init__()
            self.automatic_optimization = False
            self.model = model
            self.accumulate = accumulate

        def gen_helper(self, batch):
            return self.model(**batch).loss

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.gen_helper(batch)
            self.manual_backward(loss)  # warning: PF108
            if (batch_idx + 1) % self.accumulate == 0:
                opt.step()
                opt.zero_grad()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-5)
"""),
)

PF108_GOOD = (
    # 1. Divided by the window before backward.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    accum = 4
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x), y)
        loss = loss / accum
        loss.backward()
        if (i + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
"""),
    # 2. The twin of FP-2: `.div(accum)` is a scaling too.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    mse = nn.MSELoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    accum = 4
    for i, (x, y) in enumerate(loader):
        loss = mse(model(x), y).div(accum)
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 3. Multiplying by the reciprocal, and `/=` in place.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    N = 8
    scale = 1.0 / N
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean() * scale
        loss.backward()
        if (i + 1) % N == 0:
            opt.step()
            opt.zero_grad()
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        loss /= N
        loss.backward()
        if (i + 1) % N == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 4. zero_grad every micro-batch: nothing accumulates (a different question).
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        opt.zero_grad()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        if i % 2 == 0:
            opt.step()
"""),
    # 5. Accelerate divides by gradient_accumulation_steps itself.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        accelerator.backward(loss)
        if (i + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 6. Mean over the stacked window, one backward per step.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    window = []
    for i, (x, y) in enumerate(loader):
        window.append((model(x) - y).pow(2).mean())
        if (i + 1) % 4 == 0:
            torch.stack(window).mean().backward()
            opt.step()
            opt.zero_grad()
            window = []
"""),
    # 7. Gradients divided in place before the step.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        if (i + 1) % 4 == 0:
            for p in model.parameters():
                p.grad /= 4
            opt.step()
            opt.zero_grad()
"""),
    # 8. A DeepSpeed engine scales by its own gradient_accumulation_steps.
    textwrap.dedent("""\
    import deepspeed
    import torch.nn as nn

    engine, optimizer, _, _ = deepspeed.initialize(model=nn.Linear(10, 1), config="ds.json")
    for i, (x, y) in enumerate(loader):
        loss = (engine(x) - y).pow(2).mean()
        engine.backward(loss)
        if (i + 1) % 4 == 0:
            engine.step()
"""),
    # nanoGPT's micro-step loop with the loss divided (the fix), and a loop over the heads of
    # one output (the losses of one forward are summed on purpose)
    textwrap.dedent("""
    import torch

    from model import GPT

    model = GPT()
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cuda")
    scaler = torch.cuda.amp.GradScaler()
    while True:
        for micro_step in range(gradient_accumulation_steps):
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
            X, Y = get_batch("train")
            scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
"""),
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        out = model(x)
        for k in range(3):
            loss = out[:, k].mean()
            loss.backward(retain_graph=k < 2)
        opt.step()
"""),
)

PF109_BAD = (
    # 1. FN-8: Accelerate already divides by 8; the manual `/ 8` divides again.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model = nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y) / 8  # warning: PF109
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
"""),
    # 2. The same through an argument and `.div()`, in a helper that receives the accelerator.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator


    def train(accelerator, model, opt, loader, args):
        for x, y in loader:
            with accelerator.accumulate(model):
                loss = model(x).sum().div(args.gradient_accumulation_steps)  # warning: PF109
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()


    def main(args):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        model = nn.Linear(10, 1)
        opt = torch.optim.AdamW(model.parameters())
        train(accelerator, model, opt, loader, args)
"""),
    # 3. Lightning divides by accumulate_grad_batches in automatic optimization.
    textwrap.dedent("""\
    import lightning as L
    import torch.nn as nn


    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(10, 1)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = nn.functional.mse_loss(self.net(x), y)
            return loss / self.trainer.accumulate_grad_batches  # warning: PF109
"""),
)

PF109_GOOD = (
    # 1. Accelerate does the division; the script does not.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model = nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
"""),
    # 2. No accumulation configured on the Accelerator: the manual division is the only one.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    accum = 8
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x), y) / accum
        accelerator.backward(loss)
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
"""),
    # 3. Dividing by something else (tokens in the batch) is normalisation, not accumulation.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = nn.Linear(10, 1)
    for x, y, n_tokens in loader:
        with accelerator.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y, reduction="sum") / n_tokens
            accelerator.backward(loss)
"""),
    # 4. Lightning manual optimization leaves the scaling to the user.
    textwrap.dedent("""\
    import lightning as L
    import torch.nn as nn


    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.net = nn.Linear(10, 1)

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.net(batch).sum() / self.trainer.accumulate_grad_batches
            self.manual_backward(loss)
            return loss
"""),
    # 5. A user class named Trainer is not Lightning's (its accumulate_grad_batches means nothing).
    textwrap.dedent("""\
    import torch.nn as nn


    class Trainer:
        def __init__(self, accumulate_grad_batches):
            self.accumulate_grad_batches = accumulate_grad_batches


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(10, 1)

        def training_step(self, batch):
            trainer = Trainer(accumulate_grad_batches=4)
            return self.net(batch).sum() / trainer.accumulate_grad_batches
"""),
    # the counter window with the loss divided by it; and a counter that is never reset (a
    # one-time warm-up switch, not a window): silent
    textwrap.dedent("""\
    import torch


    def train_one_epoch(model, optimizer, loader, accum_grad_n_steps, warmup):
        accum_n_steps = 0
        for batch in loader:
            loss = model(batch) / accum_grad_n_steps
            accum_n_steps += 1
            loss.backward()
            if accum_n_steps >= accum_grad_n_steps:
                optimizer.step()
                optimizer.zero_grad()
                accum_n_steps = 0


    def warm(model, optimizer, loader, warmup):
        seen = 0
        for batch in loader:
            optimizer.zero_grad()
            model(batch).backward()
            seen += 1
            if seen >= warmup:
                optimizer.step()
"""),
)
