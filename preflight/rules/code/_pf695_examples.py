"""PF695 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # a transformers fine-tuning loop: the linear schedule is sized for one epoch and runs for four
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


    def main(train_dataset, num_epochs=4):
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2).cuda()
        loader = DataLoader(train_dataset, batch_size=32, shuffle=True)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=len(loader))  # warning: PF695
        model.train()
        for epoch in range(num_epochs):
            for batch in loader:
                batch = {k: v.cuda() for k, v in batch.items()}
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
"""),
    # the length through a name bound once; enumerate(tqdm(...)) around the loader; positional length
    textwrap.dedent("""
    import torch
    from tqdm import tqdm
    from transformers import get_cosine_schedule_with_warmup


    def train(model, train_dataloader, args):
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        num_training_steps = len(train_dataloader)
        lr_scheduler = get_cosine_schedule_with_warmup(optimizer, args.warmup, num_training_steps)  # warning: PF695
        for epoch in range(args.epochs):
            model.train()
            for step, batch in enumerate(tqdm(train_dataloader)):
                out = model(**batch)
                out.loss.backward()
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
"""),
    # plain PyTorch: CosineAnnealingLR over one epoch of batches, stepped per batch for 100 epochs
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def train(model, loader, epochs=100):
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=len(loader))  # warning: PF695
        for epoch in range(epochs):
            model.train()
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                scheduler.step()
"""),
    # module-level script, get_scheduler by name, stepped under the accumulation condition
    textwrap.dedent("""
    import torch
    from transformers import get_scheduler

    from data import train_loader
    from model import model

    EPOCHS = 3
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=100,  # warning: PF695
                                 num_training_steps=len(train_loader))
    for epoch in range(EPOCHS):
        for i, batch in enumerate(train_loader):
            loss = model(**batch).loss / 2
            loss.backward()
            if (i + 1) % 2 == 0:
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: sized for the whole run
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


    def main(train_dataset, num_epochs=4):
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2).cuda()
        loader = DataLoader(train_dataset, batch_size=32, shuffle=True)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0,
                                                    num_training_steps=len(loader) * num_epochs)
        model.train()
        for epoch in range(num_epochs):
            for batch in loader:
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
"""),
    # tricky: the total is a name bound to len(loader) and then multiplied in place (bound twice)
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def train(model, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
        total = len(loader)
        total *= epochs
        scheduler = get_linear_schedule_with_warmup(optimizer, 0, total)
        for epoch in range(epochs):
            for batch in loader:
                model(**batch).loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
"""),
    # tricky: a fresh one-epoch cosine built inside the epoch loop (a restart per epoch, on purpose)
    textwrap.dedent("""
    import torch


    def train(model, loader, epochs, criterion):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=len(loader))
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
                scheduler.step()
"""),
    # tricky: sized len(loader) but a single epoch is trained
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def finetune(model, loader):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        scheduler = get_linear_schedule_with_warmup(optimizer, 10, len(loader))
        for epoch in range(1):
            for batch in loader:
                model(**batch).loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
"""),
    # tricky: the epoch loop stops when the step budget (one epoch of batches) is spent
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def train(model, loader, max_epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        max_steps = len(loader)
        scheduler = get_linear_schedule_with_warmup(optimizer, 0, max_steps)
        step = 0
        for epoch in range(max_epochs):
            for batch in loader:
                model(**batch).loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                step += 1
            if step >= max_steps:
                break
"""),
    # tricky: the length is of another loader than the one the stepping loop iterates
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def train(model, pretrain_loader, loader, epochs):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        scheduler = get_linear_schedule_with_warmup(optimizer, 0, len(pretrain_loader))
        for batch in pretrain_loader:
            model(**batch).loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        for epoch in range(epochs):
            for batch in loader:
                model(**batch).loss.backward()
                optimizer.step()
                optimizer.zero_grad()
"""),
    # OneCycleLR told epochs and steps_per_epoch: it multiplies them itself
    textwrap.dedent("""
    import torch


    def train(model, loader, epochs, criterion):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, epochs=epochs,
                                                        steps_per_epoch=len(loader))
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
                scheduler.step()
"""),
    # tricky: the one-epoch cosine is rebuilt at the end of every epoch (a warm restart per epoch, on purpose)
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
]
