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
    # pytorch issue 65417 / CodefyUI 244 (det78): OneCycleLR sized per batch in a plain script, stepped per epoch
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.Linear(32, 4)
    train_loader = torch.utils.data.DataLoader(torch.randn(512, 32), batch_size=16, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.5, epochs=20,
                                                    steps_per_epoch=len(train_loader))
    for epoch in range(20):
        for x in train_loader:
            loss = model(x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()  # warning: PF474
"""),
    # det78: a transformers warm-up schedule sized in batches (custom loop), stepped once per epoch
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


    def fine_tune(train_dataloader, num_epochs, device):
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2).to(device)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        num_training_steps = num_epochs * len(train_dataloader)
        lr_sched = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=int(0.1 * num_training_steps),
                                                   num_training_steps=num_training_steps)
        for epoch in range(num_epochs):
            model.train()
            for batch in train_dataloader:
                batch = {k: v.to(device) for k, v in batch.items()}
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
            lr_sched.step()  # warning: PF474
        return model
"""),
    # det78: OneCycleLR given total_steps counted in batches, held by a trainer class
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import OneCycleLR


    class Runner:
        def __init__(self, model, loader, epochs):
            self.model = model
            self.loader = loader
            self.epochs = epochs
            self.optim = torch.optim.AdamW(model.parameters(), lr=1e-3)
            self.sched = OneCycleLR(self.optim, max_lr=1e-2, total_steps=epochs * len(loader))

        def run(self):
            for epoch in range(self.epochs):
                for batch, target in self.loader:
                    loss = torch.nn.functional.cross_entropy(self.model(batch), target)
                    self.optim.zero_grad()
                    loss.backward()
                    self.optim.step()
                self.sched.step()  # warning: PF474
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
    # det78 twin: OneCycleLR sized per batch and stepped on every batch (as meant)
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.Linear(32, 4)
    train_loader = torch.utils.data.DataLoader(torch.randn(512, 32), batch_size=16, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.5, epochs=20,
                                                    steps_per_epoch=len(train_loader))
    for epoch in range(20):
        for x in train_loader:
            loss = model(x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
"""),
    # det78 tricky-correct: a one-cycle over epochs (steps_per_epoch=1), stepped per epoch
    textwrap.dedent("""
    import torch
    from torch import nn

    model = nn.Linear(32, 4)
    train_loader = torch.utils.data.DataLoader(torch.randn(512, 32), batch_size=16, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.5, epochs=20, steps_per_epoch=1)
    for epoch in range(20):
        for x in train_loader:
            loss = model(x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
"""),
    # det78 tricky-correct: a warm-up schedule sized in epochs, stepped per epoch
    textwrap.dedent("""
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def train(model, train_loader, epochs, warmup_epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=warmup_epochs,
                                                    num_training_steps=epochs)
        for epoch in range(epochs):
            for x, y in train_loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
"""),
    # det78 tricky-correct: sized in optimizer steps and stepped with the optimizer under accumulation
    textwrap.dedent("""
    import torch
    from transformers import get_scheduler


    def train(model, train_loader, epochs, accum):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100,
                                     num_training_steps=epochs * len(train_loader) // accum)
        for epoch in range(epochs):
            for i, batch in enumerate(train_loader):
                loss = model(**batch).loss / accum
                loss.backward()
                if (i + 1) % accum == 0:
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad()
"""),
    # det78 tricky-correct (Time-LLM run_main.py): the name is bound to a cosine over epochs in one arm and to a
    # OneCycleLR in the other; each is stepped in its own loop under the same test
    textwrap.dedent("""
    import torch
    from torch.optim import lr_scheduler


    def train(args, model, train_loader):
        model_optim = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
        train_steps = len(train_loader)
        if args.lradj == "COS":
            scheduler = lr_scheduler.CosineAnnealingLR(model_optim, T_max=20, eta_min=1e-8)
        else:
            scheduler = lr_scheduler.OneCycleLR(optimizer=model_optim, steps_per_epoch=train_steps,
                                                epochs=args.train_epochs, max_lr=args.learning_rate)
        for epoch in range(args.train_epochs):
            for x, y in train_loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                model_optim.zero_grad()
                loss.backward()
                model_optim.step()
                if args.lradj == "TST":
                    scheduler.step()
            if args.lradj == "COS":
                scheduler.step()
"""),
    # det78 tricky-correct (parler-tts shape): a loop over optimizer updates holding the loop over its
    # accumulated micro-batches; the schedule steps once per update
    textwrap.dedent("""
    import torch
    from transformers import get_scheduler


    def train(model, optimizer, batches, total_updates, accum):
        lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=500,
                                     num_training_steps=total_updates)
        it = iter(batches)
        for _ in range(total_updates):
            batch_samples = [next(it) for _ in range(accum)]
            for batch in batch_samples:
                loss = model(**batch).loss / accum
                loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
"""),
    # det78 tricky-correct (AnyGPT soundstorm trainer, where PF474 fired before det78 when run on the repository):
    # stepped per batch in a loop over `self.dl` that holds a validation loop
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import CosineAnnealingLR


    class Trainer:
        def __init__(self, model, dl, valid_dl, epochs, num_train_steps):
            self.model = model
            self.dl = dl
            self.valid_dl = valid_dl
            self.epochs = epochs
            self.optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
            self.scheduler = CosineAnnealingLR(self.optim, T_max=num_train_steps)

        def train(self):
            for epoch in range(self.epochs):
                for batch in self.dl:
                    loss = self.model(batch)
                    loss.backward()
                    self.optim.step()
                    self.optim.zero_grad()
                    if self.steps % 1000 == 0:
                        with torch.no_grad():
                            for vbatch in self.valid_dl:
                                self.model(vbatch)
                    self.steps += 1
                    self.scheduler.step()
"""),
]
