"""PF474 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # SimCLR issue 8: T_max=len(train_loader), stepped once per epoch after warm-up epochs
    textwrap.dedent("""
    import torch


    class SimCLR:
        def __init__(self, model, config):
            self.model = model
            self.config = config

        def train(self, train_loader, loss_fn):
            optimizer = torch.optim.Adam(self.model.parameters(), lr=self.config["lr"])
            scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=len(train_loader), eta_min=0)
            for epoch in range(self.config["epochs"]):
                for (xis, xjs), _ in train_loader:
                    loss = loss_fn(self.model(xis), self.model(xjs))
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                if epoch >= 10:
                    scheduler.step()  # warning: PF474
"""),
    # a trainer class: the whole run's step count as the period, stepped per epoch
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import CosineAnnealingLR


    class Trainer:
        def __init__(self, model, loader, epochs):
            self.model = model
            self.loader = loader
            self.epochs = epochs
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            total_steps = epochs * len(loader)
            self.lr_scheduler = CosineAnnealingLR(self.optimizer, total_steps)

        def fit(self):
            for epoch in range(self.epochs):
                for x, y in self.loader:
                    loss = self.model(x, y)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
                self.lr_scheduler.step()  # warning: PF474
"""),
]

GOOD_EXAMPLES = [
    # the SimCLR fix: the period in the epochs that step it
    textwrap.dedent("""
    import torch


    def train(model, config, train_loader, loss_fn):
        optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=config["epochs"] - 10, eta_min=0)
        for epoch in range(config["epochs"]):
            for (xis, xjs), _ in train_loader:
                loss = loss_fn(model(xis), model(xjs))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if epoch >= 10:
                scheduler.step()
"""),
    # tricky-correct: T_max=len(train_loader) stepped on every batch (a cosine per epoch, as meant)
    textwrap.dedent("""
    import torch


    def train(model, epochs, train_loader, loss_fn):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=len(train_loader))
        for epoch in range(epochs):
            for x, y in train_loader:
                loss = loss_fn(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                scheduler.step()
            scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=len(train_loader))
"""),
    # tricky-correct: StepLR's step_size written in epochs (its keyword is not a batch count)
    textwrap.dedent("""
    import torch


    def train(model, args, train_loader, loss_fn):
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.step_size, gamma=0.1)
        for epoch in range(args.epochs):
            for x, y in train_loader:
                loss = loss_fn(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
"""),
]
