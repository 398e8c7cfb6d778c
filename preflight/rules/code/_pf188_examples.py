"""PF188 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # PyPOTS issue 667: the best validation epoch kept as a live state_dict, restored and saved after the loop
    textwrap.dedent("""
    import torch


    def fit(model, optimizer, train_loader, evaluate, epochs):
        best_mae, best_state = float("inf"), None
        for epoch in range(epochs):
            model.train()
            for x, y in train_loader:
                loss = torch.nn.functional.l1_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            val_mae = evaluate(model)
            if val_mae < best_mae:
                best_mae, best_state = val_mae, model.state_dict()  # warning: PF188
        model.load_state_dict(best_state)
        torch.save(model.state_dict(), "best.pt")
"""),
    # the transfer-learning tutorial shape with a shallow .copy(): a new dict, the same tensors
    textwrap.dedent("""
    import torch


    def train_model(model, criterion, optimizer, dataloaders, num_epochs=25):
        best_acc = 0.0
        best_model_wts = None
        for epoch in range(num_epochs):
            for phase in ["train", "val"]:
                model.train(phase == "train")
                corrects = 0
                for inputs, labels in dataloaders[phase]:
                    with torch.set_grad_enabled(phase == "train"):
                        outputs = model(inputs)
                        loss = criterion(outputs, labels)
                        if phase == "train":
                            optimizer.zero_grad()
                            loss.backward()
                            optimizer.step()
                    corrects += (outputs.argmax(1) == labels).sum().item()
                if phase == "val" and corrects > best_acc:
                    best_acc = corrects
                    best_model_wts = model.state_dict().copy()  # warning: PF188
        return best_model_wts
"""),
    # a trainer class keeping the best weights on an attribute and saving them at the end
    textwrap.dedent("""
    import torch


    class Trainer:
        def __init__(self, model, optimizer):
            self.model, self.optimizer = model, optimizer
            self.best = None

        def run(self, loader, val_fn, epochs):
            best_loss = float("inf")
            for epoch in range(epochs):
                for batch in loader:
                    loss = self.model(**batch).loss
                    loss.backward()
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                val_loss = val_fn(self.model)
                if val_loss < best_loss:
                    best_loss = val_loss
                    self.best = self.model.state_dict()  # warning: PF188
            torch.save(self.best, "best_model.pt")
"""),
    # PyPOTS before 325cf2ca: the training method keeps the attribute, fit() restores it
    textwrap.dedent("""
    class BaseModel:
        def _train_model(self, train_loader, val_loader):
            self.best_loss = float("inf")
            for epoch in range(self.epochs):
                self.model.train()
                for batch in train_loader:
                    self.optimizer.zero_grad()
                    self.model(batch)["loss"].backward()
                    self.optimizer.step()
                mean_val_loss = self._validate(val_loader)
                if mean_val_loss < self.best_loss:
                    self.best_loss = mean_val_loss
                    self.best_model_dict = self.model.state_dict()  # warning: PF188

        def fit(self, train_loader, val_loader):
            self._train_model(train_loader, val_loader)
            self.model.load_state_dict(self.best_model_dict)
            self.model.eval()
"""),
    # a k-fold loop: each fold restores its "best" epoch, inside the fold loop, after the epoch loop moved on
    textwrap.dedent("""
    import torch


    def cross_validate(make_model, folds, evaluate, epochs):
        scores = []
        for train_loader, val_loader in folds:
            model = make_model()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            best_auc, best_state = 0.0, None
            for epoch in range(epochs):
                for x, y in train_loader:
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                auc = evaluate(model, val_loader)
                if auc > best_auc:
                    best_auc = auc
                    best_state = model.state_dict().copy()  # warning: PF188
            if best_state is not None:
                model.load_state_dict(best_state)
            scores.append(evaluate(model, val_loader))
        return scores
"""),
    # early stopping keeping copy.copy(model.state_dict()) (a new dict, the same tensors), saved in a checkpoint
    # dict after the loop; and a dict comprehension that copies no tensor
    textwrap.dedent("""
    import copy

    import torch


    def fit(model, optimizer, loader, evaluate, epochs, max_patience=5):
        best_loss, patience, best_params = None, 0, None
        for epoch in range(epochs):
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            val = evaluate(model)
            if best_loss is None or val < best_loss:
                best_loss, patience = val, 0
                best_params = copy.copy(model.state_dict())  # warning: PF188
            else:
                patience += 1
                if patience >= max_patience:
                    break
        torch.save({"epoch": epochs, "model_state_dict": best_params}, "best.pt")


    def fit_ema(model, ema, optimizer, loader, evaluate, epochs):
        best, kept = 0.0, None
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                model(x, y).backward()
                optimizer.step()
                ema.update(model)
            score = evaluate(ema.module)
            if score > best:
                best = score
                kept = {k: v for k, v in ema.module.state_dict().items()}  # warning: PF188
        return kept
"""),
    # astnn issue 8: the "best" model is the model object itself, saved after the last epoch
    textwrap.dedent("""
    import torch


    def train(model, optimizer, loader, val_loader, evaluate, epochs):
        best_acc, best_model = 0.0, model
        for epoch in range(epochs):
            model.train()
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            acc = evaluate(model, val_loader)
            if acc > best_acc:
                best_acc = acc
                best_model = model  # warning: PF188
        torch.save(best_model.state_dict(), "best.pt")
"""),
]

GOOD_EXAMPLES = [
    # the fix: a deep copy of the tensors
    textwrap.dedent("""
    import copy

    import torch


    def fit(model, optimizer, train_loader, evaluate, epochs):
        best_mae, best_state = float("inf"), None
        for epoch in range(epochs):
            for x, y in train_loader:
                loss = torch.nn.functional.l1_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            val_mae = evaluate(model)
            if val_mae < best_mae:
                best_mae, best_state = val_mae, copy.deepcopy(model.state_dict())
        model.load_state_dict(best_state)
        torch.save(model.state_dict(), "best.pt")
"""),
    # tricky: a comprehension that clones every tensor, and the checkpoint written to disk inside the loop
    textwrap.dedent("""
    import torch


    def fit(model, optimizer, train_loader, evaluate, epochs):
        best, best_state = float("inf"), None
        for epoch in range(epochs):
            for x, y in train_loader:
                loss = model(x, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            score = evaluate(model)
            if score < best:
                best = score
                best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
                state = model.state_dict()
                torch.save(state, "best.pt")
        model.load_state_dict(best_state)
"""),
    # tricky: early stopping that breaks right after keeping the state (nothing trains after it), and the
    # live state_dict taken before the loop (the tutorial's initial value), re-bound to a copy in the loop
    textwrap.dedent("""
    import copy


    def fit(model, optimizer, loader, evaluate, epochs, target):
        best_wts = model.state_dict()
        best = 0.0
        for epoch in range(epochs):
            for x, y in loader:
                loss = model(x, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            acc = evaluate(model)
            if acc >= target:
                final = model.state_dict()
                break
            if acc > best:
                best = acc
                best_wts = copy.deepcopy(model.state_dict())
        model.load_state_dict(best_wts)
        return final
"""),
    # tricky: the last epoch's state kept without a condition (on purpose), and a state kept in the loop but
    # only used inside it
    textwrap.dedent("""
    def fit(model, optimizer, loader, epochs, ema):
        last = None
        for epoch in range(epochs):
            for x, y in loader:
                loss = model(x, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            last = model.state_dict()
            if epoch % 5 == 0:
                snap = model.state_dict()
                ema.update(snap)
        return last
"""),
    # tricky: a hyper-parameter sweep that builds a new model for every learning rate: the kept tensors
    # belong to a model that is not trained any more, so they stay the best run's weights
    textwrap.dedent("""
    import torch


    def sweep(make_model, lrs, loader, evaluate, epochs):
        best_acc, best_state = 0.0, None
        for lr in lrs:
            model = make_model()
            model = model.to("cuda")
            optimizer = torch.optim.SGD(model.parameters(), lr=lr)
            for epoch in range(epochs):
                for x, y in loader:
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
            acc = evaluate(model)
            if acc > best_acc:
                best_acc, best_state = acc, model.state_dict()
        final = make_model()
        final.load_state_dict(best_state)
        return final
"""),
    # the fix of astnn issue 8: a deep copy of the best model; and a fresh model per trial kept by name
    textwrap.dedent("""
    import copy

    import torch


    def train(model, optimizer, loader, evaluate, epochs):
        best_acc, best_model = 0.0, None
        for epoch in range(epochs):
            model.train()
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            acc = evaluate(model)
            if acc > best_acc:
                best_acc = acc
                best_model = copy.deepcopy(model)
        torch.save(best_model.state_dict(), "best.pt")
"""),
    textwrap.dedent("""
    import torch


    def search(configs, make_model, fit, evaluate):
        best_acc, best_model = 0.0, None
        for cfg in configs:
            model = make_model(cfg)
            model.train()
            fit(model, cfg)
            acc = evaluate(model)
            if acc > best_acc:
                best_acc, best_model = acc, model
        torch.save(best_model.state_dict(), "best.pt")
"""),
    # tricky-correct: model selection over candidate models, each a different object
    textwrap.dedent("""
    import torch


    def select(candidates, fit, evaluate):
        best_acc, best_model = 0.0, None
        for name, model in candidates.items():
            model.train()
            fit(model)
            acc = evaluate(model)
            if acc > best_acc:
                best_acc, best_model = acc, model
        torch.save(best_model.state_dict(), "best.pt")
"""),
]
