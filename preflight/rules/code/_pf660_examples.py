"""PF660 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # annotated-transformer issue 14: SimpleLossCompute backpropagates for the validation pass (opt=None)
    dedent("""
    class SimpleLossCompute:
        def __init__(self, generator, criterion, opt=None):
            self.generator = generator
            self.criterion = criterion
            self.opt = opt

        def __call__(self, x, y, norm):
            x = self.generator(x)
            loss = self.criterion(x.contiguous().view(-1, x.size(-1)), y.contiguous().view(-1)) / norm
            loss.backward()  # warning: PF660
            if self.opt is not None:
                self.opt.step()
                self.opt.optimizer.zero_grad()
            return loss.item() * norm
    """),
    # a run_epoch(train) helper used for validation too
    dedent("""
    def run_epoch(model, loader, criterion, optimizer, train):
        model.train(train)
        total = 0.0
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward()  # warning: PF660
            if train:
                optimizer.step()
                optimizer.zero_grad()
            total += loss.item()
        return total / len(loader)
    """),
]

GOOD = [
    # the fix
    dedent("""
    class SimpleLossCompute:
        def __init__(self, generator, criterion, opt=None):
            self.generator = generator
            self.criterion = criterion
            self.opt = opt

        def __call__(self, x, y, norm):
            x = self.generator(x)
            loss = self.criterion(x.contiguous().view(-1, x.size(-1)), y.contiguous().view(-1)) / norm
            if self.opt is not None:
                loss.backward()
                self.opt.step()
                self.opt.optimizer.zero_grad()
            return loss.item() * norm
    """),
    # tricky: gradient accumulation, the step guarded by a counter, not a training flag
    dedent("""
    def train_epoch(model, loader, criterion, optimizer, accumulation):
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y) / accumulation
            loss.backward()
            if (i + 1) % accumulation == 0:
                optimizer.step()
                optimizer.zero_grad()
    """),
    # tricky: the evaluation branch returns before the backward
    dedent("""
    def step(model, batch, criterion, optimizer, train):
        loss = criterion(model(batch[0]), batch[1])
        if not train:
            return loss.item()
        loss.backward()
        if train:
            optimizer.step()
            optimizer.zero_grad()
        return loss.item()
    """),
    # tricky: only the scheduler is optional
    dedent("""
    def train_step(model, batch, optimizer, scheduler=None):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if scheduler is not None:
            scheduler.step()
        return loss.item()
    """),
    # tricky: an optional second optimizer (GraphMAE chem/pretraining.py), the main ones step always
    dedent("""
    def train(model, decoder, loader, criterion, optimizer_model, optimizer_dec=None):
        for batch in loader:
            loss = criterion(decoder(model(batch.x)), batch.y)
            optimizer_model.zero_grad()
            if optimizer_dec is not None:
                optimizer_dec.zero_grad()
            loss.backward()
            optimizer_model.step()
            if optimizer_dec is not None:
                optimizer_dec.step()
    """),
    # tricky: pytorch/examples word_language_model: the flag picks the optimizer or a manual SGD update
    dedent("""
    def train(model, batches, criterion, optimizer, lr, args):
        for data, targets in batches:
            model.zero_grad()
            loss = criterion(model(data), targets)
            loss.backward()
            if args.use_optimizer:
                optimizer.step()
            else:
                for p in model.parameters():
                    p.data.add_(p.grad, alpha=-lr)
    """),
]
