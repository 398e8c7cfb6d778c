"""What `preflight check --fix --unsafe-fixes` makes of each bad example of PF110, in the
order of the bad examples, pin comments removed (None: that example offers no fix). The
meta-test applies every fix the rule offers to the example and compares the result with this
text, character for character."""

from __future__ import annotations

import textwrap

PF110_FIXED = [
    # bad example 0 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Predictor:
        def __init__(self, model):
            self.model = model
            self.all_preds = []

        @torch.no_grad()
        def run(self, loader):
            self.model.eval()
            for x in loader:
                preds = self.model(x)
                self.all_preds.append(preds)
            return len(self.all_preds)


    Predictor(nn.Linear(4, 2)).run(loader)
"""),
    # bad example 1 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    @torch.no_grad()
    def accuracy(model, loader):
        correct = 0
        for x, y in loader:
            logits = model(x)
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
    None,  # bad example 2: no fix offered
    # bad example 3 (unsafe fix: the function returns a graph to its caller)
    textwrap.dedent("""\
    import torch


    def epoch_train(model, loader, optimizer, loss):
        model.train()
        for image, target in loader:
            loss_value = loss(model(image.cuda()), target.cuda())
            optimizer.zero_grad()
            loss_value.backward()
            optimizer.step()


    @torch.no_grad()
    def epoch_val(model, loader, loss):
        model.eval()
        losstensor_mean = 0
        for image, target in loader:
            output = model(image.cuda())
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
    # bad example 4 (safe fix): the gcn helper decorated
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F


    @torch.no_grad()
    def propagate(model, features, adj, labels, mask):
        output = model(features, adj)
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
    # hunt46: the generation loop, decorated
    textwrap.dedent("""\
    import torch


    @torch.no_grad()
    def greedy_search(model, input_ids, max_len):
        # the same loop on a torch model: each forward records a graph
        model.eval()
        for _ in range(max_len):
            logits = model(input_ids)
            next_ids = torch.argmax(logits[:, -1, :], dim=-1)
            input_ids = torch.cat([input_ids, next_ids.unsqueeze(-1)], dim=-1)
        return input_ids
"""),
    None,  # bad example 6 (det83 flag-dispatched function): no fix offered
]
