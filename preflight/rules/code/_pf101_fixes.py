"""What `preflight check --fix --unsafe-fixes` makes of each bad example of PF101, in the
order of the bad examples, pin comments removed (None: that example offers no fix). The
meta-test applies every fix the rule offers to the example and compares the result with this
text, character for character."""

from __future__ import annotations

import textwrap

FIXED_EXAMPLES = [
    # bad example 0 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
"""),
    # bad example 1 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(784, 10)

        def forward(self, x):
            return self.fc(x)


    def train_epoch(model, loader, optimizer):
        total_loss = 0.0
        for images, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        print(f"loss {total_loss / len(loader):.4f}")


    train_epoch(Net(), loader, optimizer)
"""),
    # bad example 2 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters())
    val_losses = []
    for epoch in range(10):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        for x, y in val_loader:
            val_losses.append(criterion(model(x), y).detach())
"""),
    # bad example 3 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn.functional as F
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)


    def compute_loss(model, batch):
        logits = model(batch["input_ids"]).logits
        return F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())


    eval_losses = []
    for batch in loader:
        loss = compute_loss(model, batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        eval_losses.append(compute_loss(model, next(iter(eval_loader))).detach())
"""),
    # bad example 4 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class QNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = nn.Linear(4, 2)

        def forward(self, x):
            return self.layer(x)


    class Agent:
        def __init__(self):
            self.q_net = QNet()
            self.q_history = []

        def act(self, state):
            q = self.q_net(state)
            self.q_history.append(q.detach())
            return int(q.argmax())
"""),
    # bad example 5 (safe fix)
    textwrap.dedent("""\
    import torch.nn as nn


    class Predictor:
        def __init__(self, model):
            self.model = model
            self.all_preds = []

        def predict(self, x):
            self.model.eval()
            preds = self.model(x)
            self.all_preds.append(preds.detach())
            return preds


    predictor = Predictor(nn.Linear(8, 1))
"""),
    # bad example 6 (safe fix)
    textwrap.dedent("""\
    import lightning as L
    import torch.nn as nn
    import torch.nn.functional as F


    class LitModel(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(32, 4)
            self.training_step_outputs = []

        def training_step(self, batch, batch_idx):
            x, y = batch
            logits = self.net(x)
            loss = F.cross_entropy(logits, y)
            self.training_step_outputs.append(logits.detach())
            return loss
"""),
    # bad example 7 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    encoder = nn.Linear(64, 64)
    opt = torch.optim.SGD(encoder.parameters(), lr=0.01)
    history = {}
    features = []
    for step, batch in enumerate(loader):
        outs = [encoder(chunk) for chunk in batch.chunk(4)]
        loss = sum(o.pow(2).mean() for o in outs)
        loss.backward()
        opt.step()
        opt.zero_grad()
        history[step] = loss.detach()
        features += outs
"""),
    # bad example 8 (safe fix)
    textwrap.dedent("""\
    import torch.nn.functional as F


    def train_epoch(model, loader, optimizer):
        model.train()
        step_losses = []
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(inputs), targets)
            loss.backward()
            optimizer.step()
            step_losses.append(loss.detach())
        return sum(v.item() for v in step_losses) / len(step_losses)
"""),
    # bad example 9: no fix (an entry of a dict of losses, its kind unknown)
    None,
    # bad example 10 (safe fix): the negated loss
    textwrap.dedent("""\
    import torch


    def train(env, agent, num_updates=10000):
        optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)
        total_loss = 0
        obs = env.reset()
        for update in range(num_updates):
            actions = agent(obs)
            obs, reward, done = env.step(actions.detach())
            loss = -(reward.detach() * actions.sum(-1)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
            if update % 1000 == 0:
                print(update, total_loss / (update + 1))
"""),
    # bad example 11 (safe fix): the list kept across the epoch loop
    """\
def fit(engine, batches, epochs, grad_accum_steps):
    seen = []
    for epoch in range(epochs):
        for _ in range(grad_accum_steps):
            loss = engine(next(batches)).mean()
            engine.backward(loss)
            engine.step()
            seen.append(loss.detach())
    return len(seen)
""",
    # bad example 12: a dict of the step's outputs has no .detach(); the message says what to keep
    None,
]
