"""PF321 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SAVE_JOB = textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    from ema import EMAModel

    unet = build_unet().cuda()
    optimizer = torch.optim.AdamW(unet.parameters(), lr=5e-6)
    ema = EMAModel(unet.parameters(), decay=0.9999)


    def save_checkpoint(step):
    {save}


    step = 0
    for epoch in range(10):
        for latents, noise, t in loader:
            loss = F.mse_loss(unet(latents, t), noise)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.step(unet.parameters())
            step += 1
            if step % 500 == 0:
                save_checkpoint(step)
""")


def _save(body: str) -> str:
    return _SAVE_JOB.format(save="\n".join("    " + line.strip() for line in body.splitlines()))


PF321_BAD = [
    # held-out-27 (waifu-diffusion PR 31): the save every N steps leaves the EMA weights in the UNet
    _save("""ema.copy_to(unet.parameters())  # warning: PF321
        unet.save_pretrained(f"checkpoints/unet-{step}")"""),
    # the shadow applied for an evaluation at the end of every epoch, inside the epoch loop
    textwrap.dedent("""
    import torch

    model = Net().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model_ema = EMA(model, 0.999)
    for epoch in range(100):
        model.train()
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model_ema.update()
        model_ema.apply_shadow()  # warning: PF321
        evaluate(model, val_loader)
    """),
    # the epoch loop trains through the file's train_one_epoch and validates on the EMA weights
    textwrap.dedent("""
    import torch


    def train_one_epoch(model, loader, optimizer):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


    model = Net().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ema = ModelEMA(model)
    for epoch in range(30):
        train_one_epoch(model, train_loader, optimizer)
        ema.apply_shadow()  # warning: PF321
        validate(model, val_loader)
    """),
    # a trainer class: the evaluation method, called from the training loop, copies into self.model
    textwrap.dedent("""
    import torch
    from torch_ema import ExponentialMovingAverage


    class Trainer:
        def __init__(self, model, loader):
            self.model, self.loader = model, loader
            self.opt = torch.optim.Adam(model.parameters(), lr=1e-4)
            self.averager = ExponentialMovingAverage(model.parameters(), decay=0.995)

        def validate(self):
            self.averager.copy_to(self.model.parameters())  # warning: PF321
            return run_validation(self.model)

        def fit(self, steps):
            for i, batch in enumerate(self.loader):
                self.model(batch).mean().backward()
                self.opt.step()
                self.opt.zero_grad()
                self.averager.update()
                if i % 1000 == 0:
                    self.validate()
    """),
]

PF321_GOOD = [
    # the fix of waifu-diffusion PR 31: store / copy / save / restore
    _save("""ema.store(unet.parameters())
        ema.copy_to(unet.parameters())
        unet.save_pretrained(f"checkpoints/unet-{step}")
        ema.restore(unet.parameters())"""),
    # the training weights saved before the copy and loaded back after it
    _save("""backup = {k: v.clone() for k, v in unet.state_dict().items()}
        ema.copy_to(unet.parameters())
        unet.save_pretrained(f"checkpoints/unet-{step}")
        unet.load_state_dict(backup)"""),
    # tricky-correct: the averages copied into a separate evaluation model, never the trained one
    _save("""ema.copy_to(eval_unet.parameters())
        eval_unet.save_pretrained(f"checkpoints/unet-{step}")"""),
    # tricky-correct: the copy after the training loop (final weights) and before it (EMA of a checkpoint)
    textwrap.dedent("""
    import torch
    from diffusers.training_utils import EMAModel

    unet = build_unet().cuda()
    ema = EMAModel(unet.parameters())
    if resume:
        ema.load_state_dict(torch.load(ckpt)["ema"])
        ema.copy_to(unet.parameters())
    optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4)
    for batch in loader:
        loss = unet(batch).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        ema.step(unet.parameters())
    ema.copy_to(unet.parameters())
    unet.save_pretrained("final")
    """),
    # tricky-correct: the same epoch loop with the training weights restored after validating
    textwrap.dedent("""
    import torch


    def train_one_epoch(model, loader, optimizer):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()


    model = Net().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ema = ModelEMA(model)
    for epoch in range(30):
        train_one_epoch(model, train_loader, optimizer)
        ema.apply_shadow()
        validate(model, val_loader)
        ema.restore()
    """),
    # tricky-correct: store/copy in one hook, restore in another (the restore is in the file)
    textwrap.dedent("""
    import torch


    class Loop:
        def before_eval(self):
            self.ema.store(self.model.parameters())
            self.ema.copy_to(self.model.parameters())

        def after_eval(self):
            self.ema.restore(self.model.parameters())

        def run(self):
            for i, batch in enumerate(self.loader):
                self.model(batch).sum().backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                if i % 100 == 0:
                    self.before_eval()
                    self.evaluate()
                    self.after_eval()
    """),
]
