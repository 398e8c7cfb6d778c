"""PF604 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF604`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF604_BAD = [
    # Swin-Transformer SimMIM (issue 311): unscale and clip after every micro-batch
    textwrap.dedent("""
    import torch


    def train_one_epoch(config, model, data_loader, optimizer, scaler):
        optimizer.zero_grad()
        accumulation_steps = config.TRAIN.ACCUMULATION_STEPS
        for idx, (img, mask) in enumerate(data_loader):
            with torch.cuda.amp.autocast():
                loss = model(img, mask) / accumulation_steps
            scaler.scale(loss).backward()
            if config.TRAIN.CLIP_GRAD:
                scaler.unscale_(optimizer)  # error: PF604
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.TRAIN.CLIP_GRAD)
            if (idx + 1) % accumulation_steps == 0:
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
"""),
    # a named boundary flag and an attribute scaler
    textwrap.dedent("""
    import torch


    class Trainer:
        def fit(self, loader):
            for step, batch in enumerate(loader):
                with torch.autocast("cuda", dtype=torch.float16):
                    loss = self.model(**batch).loss / self.grad_accum
                self.scaler.scale(loss).backward()
                self.scaler.unscale_(self.optimizer)  # error: PF604
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                is_accumulation_boundary = (step + 1) == len(loader) or (step + 1) % self.grad_accum == 0
                if is_accumulation_boundary:
                    self.scaler.step(self.optimizer)
                    self.scaler.update()
                    self.optimizer.zero_grad(set_to_none=True)
"""),
]

PF604_BAD.append(
    # the current shape of Swin-Transformer main_simmim_pt.py: the unscale under "accumulation is on"
    textwrap.dedent("""
    import torch


    def train_one_epoch(config, model, data_loader, optimizer, scaler):
        for idx, (img, mask, _) in enumerate(data_loader):
            with torch.cuda.amp.autocast():
                loss = model(img, mask)
            if config.TRAIN.ACCUMULATION_STEPS > 1:
                loss = loss / config.TRAIN.ACCUMULATION_STEPS
                scaler.scale(loss).backward()
                if config.TRAIN.CLIP_GRAD:
                    scaler.unscale_(optimizer)  # error: PF604
                    torch.nn.utils.clip_grad_norm_(model.parameters(), config.TRAIN.CLIP_GRAD)
                if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                    scaler.step(optimizer)
                    optimizer.zero_grad()
                    scaler.update()
            else:
                optimizer.zero_grad()
                scaler.scale(loss).backward()
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.TRAIN.CLIP_GRAD)
                scaler.step(optimizer)
                scaler.update()
"""))

PF604_GOOD = [
    # the fix: unscale and clip in the branch that steps
    textwrap.dedent("""
    import torch


    def train_one_epoch(config, model, data_loader, optimizer, scaler):
        accumulation_steps = config.TRAIN.ACCUMULATION_STEPS
        for idx, (img, mask) in enumerate(data_loader):
            with torch.cuda.amp.autocast():
                loss = model(img, mask) / accumulation_steps
            scaler.scale(loss).backward()
            if (idx + 1) % accumulation_steps == 0:
                if config.TRAIN.CLIP_GRAD:
                    scaler.unscale_(optimizer)
                    torch.nn.utils.clip_grad_norm_(model.parameters(), config.TRAIN.CLIP_GRAD)
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
"""),
    # tricky-correct: a second `if` with the same boundary test guards the unscale
    textwrap.dedent("""
    import torch


    def train(model, loader, optimizer, scaler, accum):
        for i, (x, y) in enumerate(loader):
            with torch.autocast("cuda"):
                loss = torch.nn.functional.cross_entropy(model(x), y) / accum
            scaler.scale(loss).backward()
            if (i + 1) % accum == 0:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            log(loss)
            if (i + 1) % accum == 0:
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
"""),
    # no accumulation: the step runs on every batch, only the scaler is optional
    textwrap.dedent("""
    import torch


    def train(model, loader, optimizer, scaler, use_amp):
        for x, y in loader:
            with torch.autocast("cuda", enabled=use_amp):
                loss = torch.nn.functional.cross_entropy(model(x), y)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if use_amp:
                scaler.step(optimizer)
            else:
                optimizer.step()
            scaler.update()
            optimizer.zero_grad()
"""),
    # tricky-correct: the micro-batches run in an inner loop, the unscale after it
    textwrap.dedent("""
    import torch


    def train(model, loader, optimizer, scaler, accum):
        for step, batches in enumerate(loader):
            for micro in batches:
                with torch.autocast("cuda"):
                    loss = model(micro) / accum
                scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if step % 1 == 0:
                scaler.step(optimizer)
                scaler.update()
            optimizer.zero_grad()
"""),
]
