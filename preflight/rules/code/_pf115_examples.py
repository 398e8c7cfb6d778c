"""PF115 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# warning: PF115`` comment; the meta-test asserts exactly
those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF115_BAD = [
    # the validation loop follows the training loop; nothing calls model.eval()
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)
            self.drop = nn.Dropout(0.2)

        def forward(self, x):
            return self.fc(self.drop(x))


    def fit(train_loader, valid_loader, epochs):
        model = Net()
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
            with torch.no_grad():
                for x, y in valid_loader:
                    val_loss = criterion(model(x), y).item()  # warning: PF115
"""),
    # an evaluation helper, called after the caller put the model in training mode
    textwrap.dedent("""
    import torch


    def evaluate(model, data, loss_fn):
        total = 0.0
        with torch.no_grad():
            for src, tgt in data:
                total += loss_fn(model(src), tgt).item()  # warning: PF115
        return total


    def train(model, train_data, dev_data, loss_fn, epochs):
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            model.train()
            for src, tgt in train_data:
                optimizer.zero_grad()
                loss_fn(model(src), tgt).backward()
                optimizer.step()
            print(evaluate(model, dev_data, loss_fn))
"""),
    # a module-level script (the Udacity MNIST MLP notebook): model.train() at the top of the epoch,
    # the validation loop after the training loop, no eval() anywhere
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)
            self.dropout = nn.Dropout(0.2)

        def forward(self, x):
            return self.fc(self.dropout(x))


    model = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(50):
        model.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            for data, target in valid_loader:
                valid_loss = criterion(model(data), target)  # warning: PF115
"""),
    # held-out-14 (deepspeech.pytorch PR 22): the model's class comes from another module of the
    # project; its parameters go to the optimizer, so it is a model, left in train() for the test pass
    textwrap.dedent("""
    import torch

    from model import DeepSpeech


    def main(train_loader, test_loader, criterion, decoder):
        model = DeepSpeech(rnn_hidden_size=800, nb_layers=5).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=3e-4, momentum=0.9)
        for epoch in range(70):
            model.train()
            for inputs, targets in train_loader:
                loss = criterion(model(inputs.cuda()), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            with torch.no_grad():
                for inputs, targets in test_loader:
                    out = model(inputs.cuda())  # warning: PF115
                    print(decoder.wer(decoder.decode(out), targets))
"""),
    # DeepHyperX issue 51's shape: a `val(net, loader)` helper given the global model after
    # `net.train()` at the top of the epoch (the model is a module-level variable)
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.Dropout(0.5))

        def forward(self, x):
            return self.body(x).mean((2, 3))


    def val(net, data_loader):
        correct = 0
        for data, target in data_loader:
            with torch.no_grad():
                correct += (net(data).argmax(1) == target).sum().item()  # warning: PF115
        return correct


    net = Net()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(100):
        net.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(data), target).backward()
            optimizer.step()
        print(val(net, val_loader))
"""),
    # hunt46: a probe with dropout, evaluated in training mode after its training loop
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader


    def evaluate(features, targets, val_loader, epochs, devices):
        # the same probe with dropout before the linear layer: the mode matters
        probe = torch.nn.Sequential(torch.nn.Dropout(0.5), torch.nn.Linear(features.shape[1], int(targets.max()) + 1))
        probe = probe.cuda()
        probe = torch.nn.DataParallel(probe, device_ids=devices)
        optimizer = torch.optim.AdamW(probe.parameters(), lr=1e-3)
        criterion = torch.nn.CrossEntropyLoss()
        loader = DataLoader(list(zip(features, targets)), batch_size=256, shuffle=True)
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(probe(x.cuda()), y.cuda())
                loss.backward()
                optimizer.step()
        pred = []
        with torch.no_grad():
            for x, y in val_loader:
                pred.append(probe(x.cuda()).argmax(-1).cpu())  # warning: PF115
        return pred
    """),
    # det132: an nn.Sequential MLP whose block list also holds Dropout: the mode matters
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def fit(cfg, train_loader, val_loader):
        layers, width = [], cfg.num_features
        for _ in range(cfg.depth):
            layers += [nn.Linear(width, cfg.hidden), nn.ReLU(), nn.Dropout(0.2)]
            width = cfg.hidden
        model = nn.Sequential(*layers, nn.Linear(width, cfg.num_classes)).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(cfg.epochs):
            for x, y in train_loader:
                loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:
                correct += int((model(x.cuda()).argmax(-1) == y.cuda()).sum())  # warning: PF115
        return correct
"""),
]

PF115_GOOD = [
    # eval() in the helper, train() at the top of each epoch
    textwrap.dedent("""
    import torch


    def evaluate(model, data, loss_fn):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for src, tgt in data:
                total += loss_fn(model(src), tgt).item()
        return total


    def train(model, train_data, dev_data, loss_fn, epochs):
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            model.train()
            for src, tgt in train_data:
                optimizer.zero_grad()
                loss_fn(model(src), tgt).backward()
                optimizer.step()
            print(evaluate(model, dev_data, loss_fn))
"""),
    # eval() set by the caller, forward in the callee
    textwrap.dedent("""
    import torch


    def evaluate(model, data, loss_fn):
        total = 0.0
        with torch.no_grad():
            for src, tgt in data:
                total += loss_fn(model(src), tgt).item()
        return total


    def train(model, train_data, dev_data, loss_fn, epochs):
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            model.train()
            for src, tgt in train_data:
                optimizer.zero_grad()
                loss_fn(model(src), tgt).backward()
                optimizer.step()
            model.eval()
            print(evaluate(model, dev_data, loss_fn))
"""),
    # a model of the file without dropout or BatchNorm: the mode changes nothing
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Linear(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)

        def forward(self, x):
            return self.fc(x)


    def fit(train_loader, valid_loader, epochs):
        model = Linear()
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            with torch.no_grad():
                for x, y in valid_loader:
                    val_loss = criterion(model(x), y).item()
"""),
    # BatchNorm recalibration in training mode on purpose (not an evaluation)
    textwrap.dedent("""
    import torch


    def update_bn(loader, model):
        model.train()
        with torch.no_grad():
            for x, _ in loader:
                model(x)
"""),
    # the same script with eval() before the validation loop
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)
            self.dropout = nn.Dropout(0.2)

        def forward(self, x):
            return self.fc(self.dropout(x))


    model = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(50):
        model.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for data, target in valid_loader:
                valid_loss = criterion(model(data), target)
"""),
    # the deepspeech fix: eval() before the test pass
    textwrap.dedent("""
    import torch

    from model import DeepSpeech


    def main(train_loader, test_loader, criterion, decoder):
        model = DeepSpeech(rnn_hidden_size=800, nb_layers=5).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=3e-4, momentum=0.9)
        for epoch in range(70):
            model.train()
            for inputs, targets in train_loader:
                loss = criterion(model(inputs.cuda()), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                for inputs, targets in test_loader:
                    out = model(inputs.cuda())
                    print(decoder.wer(decoder.decode(out), targets))
"""),
    # the same helper with the global model switched by the caller before the call; and by
    # the helper itself
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.Dropout(0.5))

        def forward(self, x):
            return self.body(x).mean((2, 3))


    def val(net, data_loader):
        correct = 0
        for data, target in data_loader:
            with torch.no_grad():
                correct += (net(data).argmax(1) == target).sum().item()
        return correct


    def test(net, data_loader):
        net.eval()
        with torch.no_grad():
            return sum(net(x).sum().item() for x, _ in data_loader)


    net = Net()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(100):
        net.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(data), target).backward()
            optimizer.step()
        net.eval()
        print(val(net, val_loader))
        net.train()
        print(test(net, test_loader))
"""),
    # hunt46, InternVL clip_benchmark metrics/linear_probe.py: a single torch.nn.Linear (in DataParallel) has no mode
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader


    def evaluate(features, targets, val_loader, epochs, devices):
        # InternVL clip_benchmark linear_probe.py (shape): a linear probe trained, then evaluated without
        # probe.eval(); one nn.Linear behaves the same in both modes
        probe = torch.nn.Linear(features.shape[1], int(targets.max()) + 1)
        probe = probe.cuda()
        probe = torch.nn.DataParallel(probe, device_ids=devices)
        optimizer = torch.optim.AdamW(probe.parameters(), lr=1e-3)
        criterion = torch.nn.CrossEntropyLoss()
        loader = DataLoader(list(zip(features, targets)), batch_size=256, shuffle=True)
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(probe(x.cuda()), y.cuda())
                loss.backward()
                optimizer.step()
        pred = []
        with torch.no_grad():
            for x, y in val_loader:
                pred.append(probe(x.cuda()).argmax(-1).cpu())
        return pred
    """),
    # det132 (held-out-46 tricky case h46-hy-tricky-resolved-container-passed-to-wandb-init): an nn.Sequential
    # MLP of Linear/ReLU blocks only; train() and eval() run it alike, so evaluating in training mode is harmless
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def fit(cfg, train_loader, val_loader):
        layers, width = [], cfg.num_features
        for _ in range(cfg.depth):
            layers += [nn.Linear(width, cfg.hidden), nn.ReLU()]
            width = cfg.hidden
        layers.append(nn.Linear(width, cfg.num_classes))
        model = nn.Sequential(*layers).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(cfg.epochs):
            for x, y in train_loader:
                loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:
                correct += int((model(x.cuda()).argmax(-1) == y.cuda()).sum())
        return correct
"""),
]
