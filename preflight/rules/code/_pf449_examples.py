"""PF449 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate issue 3285: the forward through model.module "due to project constraints"
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, train_loader, epochs=10, lr=1e-3):
        accelerator = Accelerator()
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        criterion = torch.nn.BCEWithLogitsLoss()
        model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
        model.train()
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                outputs = model.module(x)  # error: PF449
                loss = criterion(outputs, y.unsqueeze(1).float())
                accelerator.backward(loss)
                optimizer.step()
"""),
    # torch DDP
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(model, loader, rank):
        model = DDP(model.to(rank), device_ids=[rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model.module(x.to(rank)), y.to(rank))  # error: PF449
            loss.backward()
            optimizer.step()
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(model, train_loader, epochs=10, lr=1e-3):
        accelerator = Accelerator()
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        criterion = torch.nn.BCEWithLogitsLoss()
        model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
        model.train()
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                outputs = model(x)
                loss = criterion(outputs, y.unsqueeze(1).float())
                accelerator.backward(loss)
                optimizer.step()
"""),
    # tricky-correct: the bare network for an EMA/eval pass under no_grad inside the training loop
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(model, loader, rank):
        model = DDP(model.to(rank), device_ids=[rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x.to(rank)), y.to(rank))
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                with torch.no_grad():
                    probe = model.module(x.to(rank))
                    print(probe.mean().item())
"""),
    # a model that was never wrapped in this function (DataParallel-free single GPU with a .module attribute)
    textwrap.dedent("""
    import torch


    def train(wrapper, loader):
        optimizer = torch.optim.SGD(wrapper.parameters(), lr=0.1)
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(wrapper.module(x), y)
            loss.backward()
            optimizer.step()
"""),
]
