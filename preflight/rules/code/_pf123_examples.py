"""PF123 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF123_BAD = [
    # fine-tuning: the optimizer built over the pretrained model, then the head replaced
    textwrap.dedent("""
    import torch
    import torchvision
    from torch import nn


    def finetune(loader, num_classes, epochs=10):
        model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        model.fc = nn.Linear(model.fc.in_features, num_classes)  # warning: PF123
        criterion = nn.CrossEntropyLoss()
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        return model
"""),
    # spro/practical-pytorch#9 shape: the model built twice, the optimizer bound to the first one
    textwrap.dedent("""
    import torch
    from torch import nn


    class RNN(nn.Module):
        def __init__(self, n_in, n_hidden, n_out):
            super().__init__()
            self.i2h = nn.Linear(n_in + n_hidden, n_hidden)
            self.i2o = nn.Linear(n_in + n_hidden, n_out)

        def forward(self, x, h):
            z = torch.cat((x, h), 1)
            return self.i2o(z), self.i2h(z)


    rnn = RNN(57, 128, 18)
    optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)
    criterion = nn.NLLLoss()


    def train(category, line):
        hidden = torch.zeros(1, 128)
        optimizer.zero_grad()
        for i in range(line.size(0)):
            output, hidden = rnn(line[i], hidden)
        loss = criterion(torch.log_softmax(output, 1), category)
        loss.backward()
        optimizer.step()
        return loss.item()


    rnn = RNN(57, 128, 18)  # warning: PF123
    for it in range(100000):
        train(torch.tensor([0]), torch.zeros(5, 1, 57))
"""),
    # a classifier entry replaced after the optimizer of a model class's __init__
    textwrap.dedent("""
    import torch
    import torchvision
    from torch import nn


    class Trainer:
        def __init__(self, num_classes):
            self.model = torchvision.models.vgg16(weights="DEFAULT")
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
            self.model.classifier[6] = nn.Linear(4096, num_classes)  # warning: PF123

        def step(self, x, y):
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            return loss.item()
"""),
    # microsoft/nni#4521's shape: the pruned layers are replaced in place after the optimizer was built
    textwrap.dedent("""
    import torch
    from nni.compression.pytorch.speedup import ModelSpeedup

    model = vgg16_bn(num_classes=10).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    _, masks = pruner.compress()
    pruner._unwrap_model()
    ModelSpeedup(model, torch.rand(1, 3, 32, 32).cuda(), masks).speedup_model()  # warning: PF123
    for images, targets in loader:
        optimizer.zero_grad()
        criterion(model(images.cuda()), targets.cuda()).backward()
        optimizer.step()
"""),
    # QAT layers swapped in place under an optimizer of the float model
    textwrap.dedent("""
    import torch
    from torch.ao.quantization import get_default_qat_qconfig, prepare_qat

    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    net.qconfig = get_default_qat_qconfig("fbgemm")
    prepare_qat(net, inplace=True)  # warning: PF123
    for x, y in loader:
        opt.zero_grad()
        loss_fn(net(x), y).backward()
        opt.step()
"""),
    # NNCF PR 327's shape: a range initialiser called after the optimizer replaces each quantizer's scale
    # with a new nn.Parameter (the stale scale stays in the optimizer); a positional table swapped directly
    textwrap.dedent("""
    import torch
    from torch import nn


    def init_ranges(model, stats):
        for name, q in model.named_modules():
            if name in stats:
                q.scale = nn.Parameter(torch.tensor(stats[name] / 127.0))  # warning: PF123


    def train(model, loader, stats, table):
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        init_ranges(model, stats)
        model.pos_embed = nn.Parameter(table.clone())  # warning: PF123
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
"""),
]

PF123_GOOD = [
    # the fix: the head first, the optimizer afterwards
    textwrap.dedent("""
    import torch
    import torchvision
    from torch import nn


    def finetune(loader, num_classes, epochs=10):
        model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
        model.fc = nn.Linear(model.fc.in_features, num_classes)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        criterion = nn.CrossEntropyLoss()
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        return model
"""),
    # tricky-correct: the new head added as a parameter group; a layer dropped for an Identity;
    # the model wrapped and moved (same tensors)
    textwrap.dedent("""
    import torch
    import torchvision
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    def finetune(loader, num_classes, rank):
        model = torchvision.models.resnet50(weights="DEFAULT")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        model.fc = nn.Linear(2048, num_classes)
        optimizer.add_param_group({"params": model.fc.parameters(), "lr": 0.1})
        model.avgpool = nn.Identity()
        model = DDP(model.to(rank), device_ids=[rank])
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
"""),
    # tricky-correct: the model rebuilt for each fold with its own optimizer; the final model rebuilt
    # only to evaluate a checkpoint; a linear probe whose optimizer trains the head while the encoder is swapped
    textwrap.dedent("""
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = nn.Linear(8, 8)
            self.head = nn.Linear(8, 2)

        def forward(self, x):
            return self.head(self.encoder(x))


    def run(folds, best_path, evaluate):
        scores = []
        for train_loader in folds:
            model = Net()
            optimizer = torch.optim.Adam(model.parameters())
            for x, y in train_loader:
                optimizer.zero_grad()
                nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, best_path)
            model = Net()
            model.load_state_dict(torch.load(best_path)["model"])
            scores.append(evaluate(model))
        return scores


    def probe(loader):
        model = Net()
        optimizer = torch.optim.Adam(model.head.parameters())
        model.encoder = nn.Linear(8, 8)
        model.encoder.requires_grad_(False)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
"""),
    # the fix of the speedup shape: the optimizer is built after the layers are replaced; a prepare_qat
    # that returns a new model (inplace=False) leaves the float model and its optimizer alone
    textwrap.dedent("""
    import torch
    from nni.compression.pytorch.speedup import ModelSpeedup
    from torch.ao.quantization import prepare_qat

    ModelSpeedup(model, torch.rand(1, 3, 32, 32), masks).speedup_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for images, targets in loader:
        optimizer.zero_grad()
        criterion(model(images), targets).backward()
        optimizer.step()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    qat_net = prepare_qat(net, inplace=False)
    for x, y in loader:
        opt.zero_grad()
        loss_fn(net(x), y).backward()
        opt.step()
"""),
    # the NNCF fix: the value copied into the existing parameter; tricky-correct: a helper that replaces
    # parameters before the optimizer is built, one whose caller builds a new optimizer afterwards, and one
    # that only rebinds `.data`
    textwrap.dedent("""
    import torch
    from torch import nn


    def init_ranges(model, stats):
        for name, q in model.named_modules():
            if name in stats:
                with torch.no_grad():
                    q.scale.copy_(torch.tensor(stats[name] / 127.0))


    def reset_scales(model):
        for q in model.modules():
            if hasattr(q, "scale"):
                q.scale = nn.Parameter(torch.ones(()))


    def rebind(model, table):
        model.pos_embed.data = table.clone()


    def train(model, loader, stats, table):
        reset_scales(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        init_ranges(model, stats)
        rebind(model, table)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        reset_scales(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
"""),
]

