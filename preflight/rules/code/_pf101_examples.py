"""PF101's executable documentation: programs that must produce it (the twins that must not are in
``_pf101_good_examples``)."""

from __future__ import annotations

import textwrap

from preflight.rules.code._pf101_good_examples import _OUTPUT_DICTS

BAD_EXAMPLES: tuple[str, ...] = (
    # 1. The classic: the loss tensor is kept for logging (warning: backward freed it).
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
        losses.append(loss)  # warning: PF101
"""),
    # 2. A running total in a training function; the model is a local nn.Module.
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
            total_loss += loss  # warning: PF101
        print(f"loss {total_loss / len(loader):.4f}")


    train_epoch(Net(), loader, optimizer)
"""),
    # 3. Validation without no_grad inside the epoch loop: every epoch's graphs are kept.
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
            val_losses.append(criterion(model(x), y))  # error: PF101
"""),
    # 4. A helper returns a loss; a second helper result is stored and never backwarded.
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
        eval_losses.append(compute_loss(model, next(iter(eval_loader))))  # error: PF101
"""),
    # 5. An RL agent keeps every Q-value tensor on the object (attributes bound in __init__).
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
            self.q_history.append(q)  # error: PF101
            return int(q.argmax())
"""),
    # 6. Predictions kept through self.model, a module passed to the constructor.
    textwrap.dedent("""\
    import torch.nn as nn


    class Predictor:
        def __init__(self, model):
            self.model = model
            self.all_preds = []

        def predict(self, x):
            self.model.eval()
            preds = self.model(x)
            self.all_preds.append(preds)  # error: PF101
            return preds


    predictor = Predictor(nn.Linear(8, 1))
"""),
    # 7. Lightning: training_step outputs kept for the epoch end.
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
            self.training_step_outputs.append(logits)  # warning: PF101  # warning: PF418
            return loss
"""),
    # 8. Per-step dictionary entries and comprehension results kept across steps.
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
        history[step] = loss  # warning: PF101
        features += outs  # warning: PF101
"""),
    # 9. The epoch's losses are kept whole although only numbers leave the function.
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
            step_losses.append(loss)  # warning: PF101
        return sum(v.item() for v in step_losses) / len(step_losses)
"""),
    # SSA-SC issue 2 (LMSCNet's trainer): a dict of losses from the model's own method, one entry
    # backwarded, every entry summed per key into the epoch totals as tensors
    """def train(model, optimizer, loader, epochs, logger):
    for epoch in range(epochs):
        model.train()
        epoch_loss = {}
        for t, data in enumerate(loader):
            scores = model(data)
            loss = model.compute_loss(scores, data)
            optimizer.zero_grad()
            loss["total"].backward()
            optimizer.step()
            for l_key in loss:
                if l_key not in epoch_loss:
                    epoch_loss[l_key] = 0
                epoch_loss[l_key] += loss[l_key]  # warning: PF101
        for l_key in epoch_loss:
            logger.info(f"{l_key}: {float(epoch_loss[l_key]) / (t + 1):.4f}")
""",
    # Brax PR 152: a policy-gradient loss written with a leading minus, summed as a tensor
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
            total_loss += loss  # warning: PF101
            if update % 1000 == 0:
                print(update, total_loss / (update + 1))
"""),
    # an accumulation loop inside the epoch loop: the list made before the epoch loop
    # outlives every optimizer step, not just the micro-batches of one
    """\
def fit(engine, batches, epochs, grad_accum_steps):
    seen = []
    for epoch in range(epochs):
        for _ in range(grad_accum_steps):
            loss = engine(next(batches)).mean()
            engine.backward(loss)
            engine.step()
            seen.append(loss)  # warning: PF101
    return len(seen)
""",
)



BAD_EXAMPLES += (
    # held-out-23 (packnet-sfm issue 47): every step's output dict (loss and depth maps) kept to the epoch
    # end; the epoch end averages it through Horovod's allreduce, which differentiates nothing
    _OUTPUT_DICTS.format(kept="output", pin="  # warning: PF101"),
)
