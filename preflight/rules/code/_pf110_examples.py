"""PF110 / PF111 executable documentation: programs that must (and must not) fire."""

from __future__ import annotations

PF110_BAD = (
    # 1. FN-14: self.model.eval(), then self.model(x) without no_grad, predictions collected.
    """\
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
""",
    # 2. FN-15: an accuracy helper the training script calls after each epoch; no eval(), no no_grad.
    """\
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
""",
    # 3. The validation loop inside the epoch loop, after model.eval(), accumulating the loss tensor.
    """\
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
""",
    # held-out-14 (chexnet issue 12): the validation pass sums the loss tensors and returns the sum to
    # the epoch loop, which only hands it to ReduceLROnPlateau.step (a number): no backward excuses it
    """\
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
""",
    # pytorch/examples gcn/main.py at 77f55b9 (rewritten short, `no_grad` left out): the training step
    # switches the model to eval and calls a helper that runs one full-graph forward, every epoch
    """\
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
""",
)

PF110_GOOD = (
    # 1. The same validation under no_grad.
    """\
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
""",
    # 2. FP-6: a saliency map needs autograd after model.eval().
    """\
import torch
import torch.nn as nn


def evaluate_saliency(model, x):
    model.eval()
    x = x.clone().requires_grad_(True)
    score = model(x).max()
    (grad,) = torch.autograd.grad(score, x)
    return grad.abs()


print(evaluate_saliency(nn.Linear(4, 2), torch.randn(1, 4)))
""",
    # 3. An eval-sounding name that is part of training: its output is backwarded by the caller.
    """\
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
""",
    # 4. Lightning runs validation_step without gradients.
    """\
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
""",
    # 5. A name alone proves nothing: `test_forward` is never called by training code.
    """\
import torch.nn as nn


def test_forward():
    model = nn.Linear(4, 2)
    assert model(torch.randn(1, 4)).shape == (1, 2)
""",
    # 6. eval() for frozen BatchNorm statistics during fine-tuning: the function trains.
    """\
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
""",
    # 7. Decorated with inference_mode.
    """\
import torch


@torch.inference_mode()
def evaluate(model, loader):
    model.eval()
    return sum(model(x).sum().item() for x in loader)
""",
    # the chexnet fix: validation under no_grad, the sum of numbers returned to the scheduler
    """\
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
""",
    # the gcn fix: the caller runs the helper under no_grad
    """\
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
""",
    # tricky-correct: a unit test switches the model to eval and calls the helper once (no training code
    # runs it)
    """\
import torch


def predict(model, x):
    return model(x).argmax(-1)


def test_predict_shape():
    model = torch.nn.Linear(4, 3)
    model.eval()
    assert predict(model, torch.randn(2, 4)).shape == (2,)
""",
)

PF111_BAD = (
    # 1. FN-10: evaluate() switches the model to eval; the epoch loop never calls train() again.
    """\
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
""",
    # 2. eval() inline in the batch loop every 100 steps.
    """\
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
""",
    # 3. The twin of the coRNN-style silent example, with a recurrent layer built with dropout
    #    between its layers: eval() turns that dropout off for the rest of training.
    """\
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
""",
)

PF111_GOOD = (
    # 1. model.train() at the top of every epoch resets the mode.
    """\
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
""",
    # 2. The helper switches back itself: eval() followed by train().
    """\
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
""",
    # 3. train(True) after evaluation, and a different (EMA) model stays in eval on purpose.
    """\
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
""",
    # 4. Evaluation after the training loop ends.
    """\
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
""",
    # 5. A train() through a helper that the epoch loop calls before training.
    """\
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
""",
    # 6. Tricky-correct (coRNN, tk-rusch/coRNN issue 1): test() leaves the model in eval mode,
    #    but the model is built only from Linear layers and tensor maths: no dropout, no batch
    #    norm, nothing reads ``self.training``, so eval() and train() compute the same network.
    """\
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
""",
    # linear probe: the training step itself runs the model in eval mode (frozen BatchNorm), so
    # the evaluation after it changes nothing (shape of facebookresearch/moco-v3
    # main_lincls.py, commit c349e6e24f40)
    """\
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
""",
    # textual inversion: each epoch puts the frozen UNet in eval mode and the text encoder it
    # trains in train mode before any step (shape of cloneofsimo/lora
    # lora_diffusion/cli_lora_pti.py, commit d84074b3e349)
    """\
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
""",
)
