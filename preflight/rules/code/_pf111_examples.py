"""PF111 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF111_BAD = (
    # 1. FN-10: evaluate() switches the model to eval; the epoch loop never calls train() again.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def evaluate(model, loader):
        model.eval()
        with torch.no_grad():
            return sum(model(x).sum().item() for x in loader)


    model = nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.5), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.train()
    for epoch in range(10):
        for x, y in train_loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()
        print(evaluate(model, val_loader))  # error: PF111
"""),
    # 2. eval() inline in the batch loop every 100 steps.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(10, 1)
            self.bn = nn.BatchNorm1d(10)

        def forward(self, x):
            return self.fc(self.bn(x))


    net = Net()
    opt = torch.optim.Adam(net.parameters())
    for step, (x, y) in enumerate(loader):
        opt.zero_grad()
        (net(x) - y).pow(2).mean().backward()
        opt.step()
        if step % 100 == 0:
            net.eval()  # error: PF111
            with torch.no_grad():
                print(net(x).mean().item())
"""),
    # 3. The twin of the coRNN-style silent example, with a recurrent layer built with dropout
    #    between its layers: eval() turns that dropout off for the rest of training.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self, n_inp, n_hid):
            super().__init__()
            self.rnn = nn.LSTM(n_inp, n_hid, num_layers=2, dropout=0.2)
            self.readout = nn.Linear(n_hid, 1)

        def forward(self, x):
            out, _ = self.rnn(x)
            return self.readout(out[-1])


    def test(model, data, label):
        model.eval()
        with torch.no_grad():
            return nn.functional.mse_loss(model(data), label).item()


    model = Net(2, 128)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(1000):
        data, label = get_batch()
        loss = nn.functional.mse_loss(model(data), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i % 100 == 0:
            print(loss.item(), test(model, data, label))  # error: PF111
"""),
)

PF111_GOOD = (
    # 1. model.train() at the top of every epoch resets the mode.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def evaluate(model, loader):
        model.eval()
        with torch.no_grad():
            return sum(model(x).sum().item() for x in loader)


    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()
        print(evaluate(model, val_loader))
"""),
    # 2. The helper switches back itself: eval() followed by train().
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def evaluate(model, loader):
        model.eval()
        with torch.no_grad():
            total = sum(model(x).sum().item() for x in loader)
        model.train()
        return total


    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in train_loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()
        print(evaluate(model, val_loader))
"""),
    # 3. train(True) after evaluation, and a different (EMA) model stays in eval on purpose.
    textwrap.dedent("""\
    import copy
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    ema = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in train_loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()
        ema.eval()
        model.eval()
        with torch.no_grad():
            print(model(x).sum().item(), ema(x).sum().item())
        model.train(True)
"""),
    # 4. Evaluation after the training loop ends.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in train_loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        print(model(x))
"""),
    # 5. A train() through a helper that the epoch loop calls before training.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def train_one_epoch(model, opt, loader):
        model.train()
        for x, y in loader:
            opt.zero_grad()
            (model(x) - y).pow(2).mean().backward()
            opt.step()


    def validate(model, loader):
        model.eval()
        with torch.no_grad():
            return [model(x).sum().item() for x in loader]


    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(5):
        train_one_epoch(model, opt, train_loader)
        validate(model, val_loader)
"""),
    # 6. Tricky-correct (coRNN, tk-rusch/coRNN issue 1): test() leaves the model in eval mode,
    #    but the model is built only from Linear layers and tensor maths: no dropout, no batch
    #    norm, nothing reads ``self.training``, so eval() and train() compute the same network.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Cell(nn.Module):
        def __init__(self, n_inp, n_hid):
            super().__init__()
            self.i2h = nn.Linear(n_inp + n_hid, n_hid)

        def forward(self, x, h):
            return torch.tanh(self.i2h(torch.cat((x, h), 1)))


    class Net(nn.Module):
        def __init__(self, n_inp, n_hid):
            super().__init__()
            self.n_hid = n_hid
            self.cell = Cell(n_inp, n_hid)
            self.readout = nn.Linear(n_hid, 1)

        def forward(self, x):
            h = x.new_zeros(x.size(1), self.n_hid)
            for t in range(x.size(0)):
                h = self.cell(x[t], h)
            return self.readout(h)


    def test(model, data, label):
        model.eval()
        with torch.no_grad():
            return nn.functional.mse_loss(model(data), label).item()


    model = Net(2, 128)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(1000):
        data, label = get_batch()
        loss = nn.functional.mse_loss(model(data), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i % 100 == 0:
            print(loss.item(), test(model, data, label))
"""),
    # linear probe: the training step itself runs the model in eval mode (frozen BatchNorm), so
    # the evaluation after it changes nothing (shape of facebookresearch/moco-v3
    # main_lincls.py, commit c349e6e24f40)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torchvision


    def train(loader, model, criterion, optimizer):
        model.eval()
        for images, target in loader:
            loss = criterion(model(images), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    def validate(loader, model, criterion):
        model.eval()
        with torch.no_grad():
            return sum(criterion(model(x), y).item() for x, y in loader)


    model = torchvision.models.resnet50()
    for name, param in model.named_parameters():
        if name not in ("fc.weight", "fc.bias"):
            param.requires_grad = False
    optimizer = torch.optim.SGD(model.fc.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(90):
        train(train_loader, model, criterion, optimizer)
        validate(val_loader, model, criterion)
"""),
    # textual inversion: each epoch puts the frozen UNet in eval mode and the text encoder it
    # trains in train mode before any step (shape of cloneofsimo/lora
    # lora_diffusion/cli_lora_pti.py, commit d84074b3e349)
    textwrap.dedent("""\
    import torch
    from diffusers import UNet2DConditionModel
    from transformers import CLIPTextModel

    unet = UNet2DConditionModel.from_pretrained("runwayml/stable-diffusion-v1-5", subfolder="unet")
    text_encoder = CLIPTextModel.from_pretrained("runwayml/stable-diffusion-v1-5", subfolder="text_encoder")
    unet.requires_grad_(False)
    optimizer = torch.optim.AdamW(text_encoder.get_input_embeddings().parameters(), lr=5e-4)
    for epoch in range(10):
        unet.eval()
        text_encoder.train()
        for latents, ids, noise, t in loader:
            pred = unet(latents, t, text_encoder(ids)[0]).sample
            loss = torch.nn.functional.mse_loss(pred, noise)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # Tricky-correct: a linear probe puts the whole network in eval mode at the top of every epoch
    # and only its new head back in train mode; the evaluation's later eval() changes nothing,
    # because the next iteration sets the modes again before its first training step.
    textwrap.dedent("""\
    import torch
    import torchvision


    net = torchvision.models.resnet18(weights="DEFAULT")
    net.requires_grad_(False)
    net.fc = torch.nn.Linear(512, 10)
    opt = torch.optim.SGD(net.fc.parameters(), lr=0.1)
    for epoch in range(20):
        net.eval()
        net.fc.train()
        for images, labels in train_loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(images), labels).backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            hits = sum((net(x).argmax(1) == y).sum().item() for x, y in val_loader)
        print(epoch, hits)
"""),
)
