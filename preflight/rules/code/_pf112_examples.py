"""Examples for PF112 activation-before-logits-loss, PF113 logits-into-bce-loss and
PF114 redundant-log-softmax (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

import textwrap

from preflight.rules.code._pf112_eval_mode_examples import EVAL_MODE_BAD, EVAL_MODE_GOOD

PF112_BAD = [
    # softmax probabilities into nn.NLLLoss (it expects log_softmax)
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(10, 3)

        def forward(self, x):
            return torch.softmax(self.fc(x), dim=1)


    model = Net()
    criterion = nn.NLLLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        loss = criterion(model(x), y)  # error: PF112
        loss.backward()
        opt.step()
"""),
    *EVAL_MODE_BAD,  # det131: a forward that applies its activation only in eval mode (pytorch-3dunet#45)
    # softmax inline into F.cross_entropy
    textwrap.dedent("""
    import torch.nn.functional as F

    def train(model, loader, opt):
        for x, y in loader:
            loss = F.cross_entropy(F.softmax(model(x), dim=1), y)  # error: PF112
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # forward returns softmax (competitor FN-11)
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(32, 10)

        def forward(self, x):
            return F.softmax(self.fc(x), dim=-1)

    model = Net()
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        loss = criterion(model(x), y)  # error: PF112
        loss.backward()
"""),
    # nn.Sequential ending in nn.Sigmoid into BCEWithLogitsLoss, import alias
    textwrap.dedent("""
    from torch import nn
    from torch.nn import BCEWithLogitsLoss as BCEL

    model = nn.Sequential(nn.Linear(16, 1), nn.Sigmoid())
    loss_fn = BCEL()
    for x, y in loader:
        out = model(x)
        loss = loss_fn(out.squeeze(1), y)  # error: PF112
        loss.backward()
"""),
    # sigmoid through a name into F.binary_cross_entropy_with_logits
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    def step(model, x, y):
        probs = torch.sigmoid(model(x))
        return F.binary_cross_entropy_with_logits(probs, y)  # error: PF112
"""),
    # held-out-4 (HAR CNN): the softmax ends the file's one model class; the loss is applied in a
    # train(model, ...) that the file never calls (its entry point is elsewhere)
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Network(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 6)

        def forward(self, x):
            return F.softmax(self.fc(x), dim=1)


    def train(model, optimizer, loader):
        criterion = nn.CrossEntropyLoss()
        for x, y in loader:
            loss = criterion(model(x), y)  # error: PF112
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
    # UNet3+ (issue 23): the model is built with `.cuda()` (nn.Module.cuda returns the module) and
    # its forward ends in a helper method that applies the sigmoid; BCEWithLogitsLoss applies it again
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.outconv = nn.Conv2d(64, 1, 3, padding=1)

        def forward(self, x):
            return self._head(self.outconv(x))

        def _head(self, d1):
            return F.sigmoid(d1)


    net = UNet().cuda()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-4)
    for imgs, masks in loader:
        loss = criterion(net(imgs.cuda()), masks.cuda())  # error: PF112
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
]

PF112_GOOD = [
    *EVAL_MODE_GOOD,  # det131: its fixes and tricky-correct twins
    # log_softmax into NLLLoss, and nll_loss used to gather the target's probability
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def step(model, x, y, opt):
        opt.zero_grad()
        loss = F.nll_loss(F.log_softmax(model(x), dim=1), y)
        loss.backward()
        opt.step()
        probs = -F.nll_loss(F.softmax(model(x), -1), y, reduction="none")
        return probs
"""),
    # tricky-correct: the same model built with `.to(device)`, whose forward helper returns the
    # logits; the sigmoid runs only in `predict`, outside the loss
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.outconv = nn.Conv2d(64, 1, 3, padding=1)

        def forward(self, x):
            return self._head(self.outconv(x))

        def _head(self, d1):
            return d1

        def predict(self, x):
            return F.sigmoid(self(x))


    net = UNet().to("cuda")
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-4)
    for imgs, masks in loader:
        loss = criterion(net(imgs.cuda()), masks.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # logits into CE; softmax only for the accuracy
    textwrap.dedent("""
    import torch.nn.functional as F

    def train(model, loader, opt):
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            probs = F.softmax(logits, dim=1)
            acc = (probs.argmax(1) == y).float().mean()
            loss.backward()
"""),
    # forward returns softmax only in eval mode: the value is not always a softmax
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(32, 10)

        def forward(self, x):
            logits = self.fc(x)
            if self.training:
                return logits
            return F.softmax(logits, dim=-1)

    model = Net()
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        criterion(model(x), y).backward()
"""),
    # sigmoid + BCELoss is the probability contract: fine
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    model = nn.Linear(16, 1)
    criterion = nn.BCELoss()
    for x, y in loader:
        loss = criterion(torch.sigmoid(model(x)), y)
        loss.backward()
"""),
    # the name is re-bound to logits before the loss (per value, not per name)
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        out = F.softmax(model(x), dim=1)
        confidence = out.max(1).values
        out = model.head(x)
        return F.cross_entropy(out, y), confidence
"""),
    # a softmax only on one branch: not provably a softmax
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y, use_probs):
        out = model(x)
        if use_probs:
            out = F.softmax(out, dim=1)
        return F.cross_entropy(out, y)
"""),
    # log_softmax into cross_entropy is PF114's (a note), never PF112
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        return F.cross_entropy(F.log_softmax(model(x), dim=-1), y)
"""),
    # the fix of the HAR shape: forward returns logits
    textwrap.dedent("""
    import torch.nn as nn


    class Network(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 6)

        def forward(self, x):
            return self.fc(x)


    def train(model, optimizer, loader):
        criterion = nn.CrossEntropyLoss()
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
    # two model classes in the file: which one `model` receives is not known
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Probs(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 6)

        def forward(self, x):
            return F.softmax(self.fc(x), dim=1)


    class Logits(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 6)

        def forward(self, x):
            return self.fc(x)


    def train(model, optimizer, loader):
        criterion = nn.CrossEntropyLoss()
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
]

PF113_BAD = [
    # raw logits of a Linear head into nn.BCELoss; an unrelated sigmoid elsewhere (FN-12)
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    class Gate(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)

        def forward(self, x):
            return x * torch.sigmoid(self.proj(x))

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = Gate()
            self.head = nn.Linear(8, 1)

        def forward(self, x):
            return self.head(self.gate(x))

    model = Classifier()
    criterion = nn.BCELoss()
    for x, y in loader:
        loss = criterion(model(x).squeeze(-1), y)  # error: PF113
        loss.backward()
"""),
    # Hugging Face logits into F.binary_cross_entropy
    textwrap.dedent("""
    import torch.nn.functional as F
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=4)
    for batch in loader:
        outputs = model(input_ids=batch["input_ids"])  # warning: PF487
        loss = F.binary_cross_entropy(outputs.logits, batch["labels"])  # error: PF113
        loss.backward()
"""),
]

PF113_GOOD = [
    # sigmoid before BCELoss
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    model = nn.Linear(16, 1)
    criterion = nn.BCELoss()
    for x, y in loader:
        criterion(torch.sigmoid(model(x)), y).backward()
"""),
    # model of unknown provenance: cannot show it returns logits
    textwrap.dedent("""
    import torch.nn as nn
    from mylib import build_model

    model = build_model()
    criterion = nn.BCELoss()
    for x, y in loader:
        criterion(model(x), y).backward()
"""),
    # forward ends in a Sequential with Sigmoid
    textwrap.dedent("""
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())

        def forward(self, x):
            return self.body(x)

    net = Net()
    loss = nn.BCELoss()(net(x), y)
"""),
    # logits into BCEWithLogitsLoss
    textwrap.dedent("""
    import torch.nn as nn

    model = nn.Linear(16, 1)
    criterion = nn.BCEWithLogitsLoss()
    for x, y in loader:
        criterion(model(x), y).backward()
"""),
    # clamped into [0, 1] before BCE
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F

    head = nn.Linear(16, 1)
    def step(x, y):
        return F.binary_cross_entropy(head(x).clamp(0, 1), y)
"""),
]

PF114_BAD = [
    # competitor FP-1: log_softmax into cross_entropy is redundant work, not a bug
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        return F.cross_entropy(F.log_softmax(model(x), dim=-1), y)  # note: PF114
"""),
    textwrap.dedent("""
    import torch.nn as nn

    model = nn.Sequential(nn.Linear(16, 10), nn.LogSoftmax(dim=1))
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        criterion(model(x), y).backward()  # note: PF114
"""),
]

PF114_GOOD = [
    # log_softmax into nll_loss is the intended pairing
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        return F.nll_loss(F.log_softmax(model(x), dim=-1), y)
"""),
    # logits into cross_entropy
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        return F.cross_entropy(model(x), y)
"""),
    # log_softmax used for a KL term, CE on the logits
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y, teacher_probs):
        logits = model(x)
        logp = F.log_softmax(logits, dim=-1)
        return F.cross_entropy(logits, y) + F.kl_div(logp, teacher_probs, reduction="batchmean")
"""),
    # log_softmax with a hand-written NLL: nothing applies it twice
    textwrap.dedent("""
    import torch.nn.functional as F

    def step(model, x, y):
        logp = F.log_softmax(model(x), dim=-1)
        return -logp.gather(1, y.unsqueeze(1)).mean()
"""),
]
