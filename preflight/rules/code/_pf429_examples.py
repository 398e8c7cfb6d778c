"""PF429 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

PF429_BAD = [
    # XNOR-Net-PyTorch issue 38
    """
import torch


def main(args, trainset, testset, model, optimizer, criterion):
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=128, shuffle=False, num_workers=2)  # warning: PF429
    testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False, num_workers=2)
    for epoch in range(1, 320):
        model.train()
        for data, target in trainloader:
            optimizer.zero_grad()
            loss = criterion(model(data.cuda()), target.cuda())
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for data, target in testloader:
                model(data.cuda())
""",
    # a multi-line call: the finding is on the keyword to change
    """
from torch.utils.data import DataLoader


def fit(model, opt, train_set, epochs):
    loader = DataLoader(
        train_set,
        batch_size=32,
        shuffle=False,  # warning: PF429
    )
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            model(x, y).backward()
            opt.step()
""",
]

PF429_GOOD = [
    # the fixed loader; the evaluation loader keeps shuffle=False
    """
import torch


def main(trainset, testset, model, optimizer, criterion):
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=128, shuffle=True)
    testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False)
    for epoch in range(10):
        for data, target in trainloader:
            optimizer.zero_grad()
            criterion(model(data), target).backward()
            optimizer.step()
        with torch.no_grad():
            for data, target in testloader:
                model(data)
""",
    # a sampler shuffles; the dataset is shuffled before the loader; one pass only (no epoch loop)
    """
import numpy as np
from torch.utils.data import DataLoader, DistributedSampler, Subset


def ddp(model, opt, train_set, epochs):
    sampler = DistributedSampler(train_set)
    loader = DataLoader(train_set, batch_size=32, shuffle=False, sampler=sampler)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            opt.zero_grad()
            model(x, y).backward()
            opt.step()


def pre_shuffled(model, opt, train_set, epochs):
    order = np.random.permutation(len(train_set))
    loader = DataLoader(Subset(train_set, order), batch_size=32, shuffle=False)
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            model(x, y).backward()
            opt.step()


def one_pass(model, opt, train_set):
    for x, y in DataLoader(train_set, shuffle=False):
        opt.zero_grad()
        model(x, y).backward()
        opt.step()
""",
]
