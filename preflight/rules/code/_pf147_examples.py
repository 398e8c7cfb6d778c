"""PF147 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_KWARGS = textwrap.dedent("""
    import numpy as np
    import torch
    from torch.utils.data import DataLoader
    from sklearn.metrics import r2_score


    def evaluate(model, loader, targets):
        preds = []
        with torch.no_grad():
            for batch, _ in loader:
                preds.append(model(batch).squeeze(-1).numpy())
        return r2_score(targets, np.concatenate(preds))


    def main(train_set, val_set, model, epochs):
        loader_kwargs = dict(batch_size=64, shuffle={shuffle}, num_workers=4)
        train_loader = DataLoader(train_set, **loader_kwargs)
        val_loader = DataLoader(val_set, **{val_kwargs}){mark}
        for epoch in range(epochs):
            train_one_epoch(model, train_loader)
            print(epoch, evaluate(model, val_loader, val_set.targets))
""")

_DIRECT = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader
    from sklearn.metrics import accuracy_score


    def predict_and_score(model, labels, loader):
        outputs = []
        for i, (x, _) in enumerate(loader):
            outputs.extend(model(x).argmax(1).tolist())
        return accuracy_score(labels, outputs)


    def run(model, test_set):
        test_loader = DataLoader(test_set, batch_size=128, shuffle={shuffle}){mark}
        print(predict_and_score(model, test_set.labels, test_loader))
""")

PF147_BAD = [
    # openadmet-models PR 572: the training kwargs (shuffle=True) reused for the validation loader
    _KWARGS.format(shuffle="True", val_kwargs="loader_kwargs", mark="  # error: PF147"),
    # a shuffled test loader, predictions extended in loader order, labels by keyword-less position
    _DIRECT.format(shuffle="True", mark="  # error: PF147"),
]

PF147_GOOD = [
    # the fixes
    _DIRECT.format(shuffle="False", mark=""),
    _KWARGS.format(shuffle="True", val_kwargs='{**loader_kwargs, "shuffle": False}', mark=""),
    # tricky-correct: shuffle=True, but the labels are collected from the batches with the predictions
    textwrap.dedent("""
    import numpy as np
    from torch.utils.data import DataLoader
    from sklearn.metrics import r2_score


    def evaluate(model, loader, targets):
        preds, ys = [], []
        for batch, y in loader:
            preds.append(model(batch).numpy())
            ys.append(y.numpy())
        print("val size", len(targets))
        return r2_score(np.concatenate(ys), np.concatenate(preds))


    def main(val_set, model):
        val_loader = DataLoader(val_set, batch_size=64, shuffle=True)
        return evaluate(model, val_loader, val_set.targets)
    """),
    # tricky-correct: the dataset's labels only give the class count
    textwrap.dedent("""
    from torch.utils.data import DataLoader


    def train(model, loader, labels):
        losses = []
        n_classes = int(max(labels)) + 1
        for x, y in loader:
            losses.append(model.step(x, y, n_classes))
        return sum(losses) / len(losses)


    def main(train_set, model):
        loader = DataLoader(train_set, batch_size=32, shuffle=True)
        return train(model, loader, train_set.targets)
    """),
]
