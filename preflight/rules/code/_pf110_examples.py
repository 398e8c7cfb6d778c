"""PF110 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF110_BAD = (
    # 1. FN-14: self.model.eval(), then self.model(x) without no_grad, predictions collected.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Predictor:
        def __init__(self, model):
            self.model = model
            self.all_preds = []

        def run(self, loader):
            self.model.eval()
            for x in loader:
                preds = self.model(x)  # error: PF110
                self.all_preds.append(preds)  # error: PF101
            return len(self.all_preds)


    Predictor(nn.Linear(4, 2)).run(loader)
"""),
    # 2. FN-15: an accuracy helper the training script calls after each epoch; no eval(), no no_grad.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def accuracy(model, loader):
        correct = 0
        for x, y in loader:
            logits = model(x)  # warning: PF110
            correct += (logits.argmax(1) == y).sum().item()
        return correct / len(loader.dataset)


    model = nn.Linear(10, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for x, y in train_loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        print(accuracy(model, val_loader))
"""),
    # 3. The validation loop inside the epoch loop, after model.eval(), accumulating the loss tensor.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 2)
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
        model.eval()
        val_loss = 0
        for x, y in val_loader:
            val_loss += nn.functional.cross_entropy(model(x), y)  # error: PF110
        print(val_loss)
"""),
    # held-out-14 (chexnet issue 12): the validation pass sums the loss tensors and returns the sum to
    # the epoch loop, which only hands it to ReduceLROnPlateau.step (a number): no backward excuses it
    textwrap.dedent("""\
    import torch


    def epoch_train(model, loader, optimizer, loss):
        model.train()
        for image, target in loader:
            loss_value = loss(model(image.cuda()), target.cuda())
            optimizer.zero_grad()
            loss_value.backward()
            optimizer.step()


    def epoch_val(model, loader, loss):
        model.eval()
        losstensor_mean = 0
        for image, target in loader:
            output = model(image.cuda())  # warning: PF110
            losstensor = loss(output, target.cuda())
            losstensor_mean += losstensor
        return losstensor_mean / len(loader)


    def main(model, train_loader, val_loader, loss):
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5, mode="min")
        for epoch in range(100):
            epoch_train(model, train_loader, optimizer, loss)
            losstensor = epoch_val(model, val_loader, loss)
            scheduler.step(losstensor)
"""),
    # pytorch/examples gcn/main.py at 77f55b9 (rewritten short, `no_grad` left out): the training step
    # switches the model to eval and calls a helper that runs one full-graph forward, every epoch
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F


    def propagate(model, features, adj, labels, mask):
        output = model(features, adj)  # warning: PF110
        return F.nll_loss(output[mask], labels[mask]).item()


    def train_iter(model, optimizer, features, adj, labels, mask_train, mask_val):
        model.train()
        optimizer.zero_grad()
        F.nll_loss(model(features, adj)[mask_train], labels[mask_train]).backward()
        optimizer.step()
        model.eval()
        return propagate(model, features, adj, labels, mask_val)


    def main(model, features, adj, labels, idx_train, idx_val):
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        for epoch in range(200):
            print(train_iter(model, optimizer, features, adj, labels, idx_train, idx_val))
"""),
    # hunt46: a generation loop on a torch model after eval()
    textwrap.dedent("""\
    import torch


    def greedy_search(model, input_ids, max_len):
        # the same loop on a torch model: each forward records a graph
        model.eval()
        for _ in range(max_len):
            logits = model(input_ids)  # warning: PF110
            next_ids = torch.argmax(logits[:, -1, :], dim=-1)
            input_ids = torch.cat([input_ids, next_ids.unsqueeze(-1)], dim=-1)
        return input_ids
    """),
    # det83, jpata/particleflow: a flag-dispatched epoch function called with is_train=False
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F


    def train_and_valid(model, optimizer, loader, is_train):
        if is_train:
            model.train()
        else:
            model.eval()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)  # warning: PF110
            if is_train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


    def fit(model, optimizer, train_loader, valid_loader):
        train_and_valid(model, optimizer, train_loader, True)
        train_and_valid(model, optimizer, valid_loader, False)
    """),
)

PF110_GOOD = (
    # 1. The same validation under no_grad.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 2)
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                print(nn.functional.cross_entropy(model(x), y).item())
"""),
    # 2. FP-6: a saliency map needs autograd after model.eval().
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def evaluate_saliency(model, x):
        model.eval()
        x = x.clone().requires_grad_(True)
        score = model(x).max()
        (grad,) = torch.autograd.grad(score, x)
        return grad.abs()


    print(evaluate_saliency(nn.Linear(4, 2), torch.randn(1, 4)))
"""),
    # 3. An eval-sounding name that is part of training: its output is backwarded by the caller.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    gen = nn.Linear(8, 8)
    disc = nn.Linear(8, 1)
    opt = torch.optim.Adam(gen.parameters())


    def sample(z):
        return gen(z)


    for z in noise:
        opt.zero_grad()
        disc(sample(z)).mean().backward()
        opt.step()
"""),
    # 4. Lightning runs validation_step without gradients.
    textwrap.dedent("""\
    import lightning as L
    import torch.nn as nn


    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 2)

        def validation_step(self, batch, batch_idx):
            self.net.eval()
            x, y = batch
            self.log("val_loss", nn.functional.cross_entropy(self.net(x), y))
"""),
    # 5. A name alone proves nothing: `test_forward` is never called by training code.
    textwrap.dedent("""\
    import torch.nn as nn


    def test_forward():
        model = nn.Linear(4, 2)
        assert model(torch.randn(1, 4)).shape == (1, 2)
"""),
    # 6. eval() for frozen BatchNorm statistics during fine-tuning: the function trains.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)


    def train_step(x, y):
        model.eval()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


    for x, y in loader:
        train_step(x, y)
"""),
    # 7. Decorated with inference_mode.
    textwrap.dedent("""\
    import torch


    @torch.inference_mode()
    def evaluate(model, loader):
        model.eval()
        return sum(model(x).sum().item() for x in loader)
"""),
    # the chexnet fix: validation under no_grad, the sum of numbers returned to the scheduler
    textwrap.dedent("""\
    import torch


    def epoch_train(model, loader, optimizer, loss):
        model.train()
        for image, target in loader:
            loss_value = loss(model(image.cuda()), target.cuda())
            optimizer.zero_grad()
            loss_value.backward()
            optimizer.step()


    def epoch_val(model, loader, loss):
        model.eval()
        losstensor_mean = 0
        with torch.no_grad():
            for image, target in loader:
                losstensor_mean += loss(model(image.cuda()), target.cuda())
        return losstensor_mean / len(loader)


    def main(model, train_loader, val_loader, loss):
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5, mode="min")
        for epoch in range(100):
            epoch_train(model, train_loader, optimizer, loss)
            scheduler.step(epoch_val(model, val_loader, loss))
"""),
    # the gcn fix: the caller runs the helper under no_grad
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F


    def propagate(model, features, adj, labels, mask):
        output = model(features, adj)
        return F.nll_loss(output[mask], labels[mask]).item()


    def train_iter(model, optimizer, features, adj, labels, mask_train, mask_val):
        model.train()
        optimizer.zero_grad()
        F.nll_loss(model(features, adj)[mask_train], labels[mask_train]).backward()
        optimizer.step()
        model.eval()
        with torch.no_grad():
            return propagate(model, features, adj, labels, mask_val)


    def main(model, features, adj, labels, idx_train, idx_val):
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        for epoch in range(200):
            print(train_iter(model, optimizer, features, adj, labels, idx_train, idx_val))
"""),
    # tricky-correct: a unit test switches the model to eval and calls the helper once (no training code
    # runs it)
    textwrap.dedent("""\
    import torch


    def predict(model, x):
        return model(x).argmax(-1)


    def test_predict_shape():
        model = torch.nn.Linear(4, 3)
        model.eval()
        assert predict(model, torch.randn(2, 4)).shape == (2,)
"""),
    # tricky-correct: the project's own decorator named for inference mode (YOLOv5's
    # `@smart_inference_mode()` in utils, applying torch.inference_mode or torch.no_grad)
    textwrap.dedent("""\
    import torch

    from utils.torch_utils import smart_inference_mode


    @smart_inference_mode()
    def run(model, dataloader, device):
        model.eval()
        correct = 0
        for images, labels in dataloader:
            preds = model(images.to(device)).argmax(-1)
            correct += (preds.cpu() == labels).sum().item()
        return correct
"""),
    # hunt46, MOSS models_jittor/generation.py: a Jittor file (no torch import)
    textwrap.dedent("""\
    import jittor as jt


    def greedy_search(model, input_ids, max_len):
        # MOSS models_jittor/generation.py (shape): a Jittor model, Jittor's eval(); no torch autograd here
        model.eval()
        for _ in range(max_len):
            logits = model(input_ids)
            next_ids = jt.argmax(logits[:, -1, :], dim=-1)[0]
            input_ids = jt.concat([input_ids, next_ids.unsqueeze(-1)], dim=-1)
        return input_ids
    """),
    # det83: the same function with the flag turning gradients off on its evaluation path
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F


    def train_and_valid(model, optimizer, loader, is_train):
        if is_train:
            model.train()
        else:
            model.eval()
        for x, y in loader:
            with torch.set_grad_enabled(is_train):
                loss = F.cross_entropy(model(x), y)
            if is_train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


    def fit(model, optimizer, train_loader, valid_loader):
        train_and_valid(model, optimizer, train_loader, True)
        train_and_valid(model, optimizer, valid_loader, False)
    """),
)
