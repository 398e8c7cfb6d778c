"""PF101's correct-code twins: programs that must NOT produce it (executable documentation, see
tests/test_rules_meta.py; the must-fire programs are in ``_pf101_examples``)."""

from __future__ import annotations

import textwrap

GOOD_EXAMPLES: tuple[str, ...] = (
    # 1. Logging numbers, not tensors.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    running = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        running += loss.item() * x.size(0)
        last = float(loss)
"""),
    # 2. Detached copies.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 2)
    optimizer = torch.optim.Adam(model.parameters())
    all_logits = []
    total = torch.zeros(())
    for x, y in loader:
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        all_logits.append(logits.detach().cpu())
        total += loss.detach()
"""),
    # 3. Evaluation under torch.no_grad() and inference_mode, in and out of the epoch loop.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 2)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters())
    val_losses = []
    preds = []
    for epoch in range(3):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        with torch.no_grad():
            for x, y in val_loader:
                val_losses.append(criterion(model(x), y))
        with torch.inference_mode():
            preds.append(model(x))
"""),
    # 4. A decorated evaluation function.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from torch import no_grad

    model = nn.Linear(10, 2)


    @no_grad()
    def evaluate(loader):
        outputs = []
        total = 0
        for x, _ in loader:
            out = model(x)
            outputs.append(out)
            total += out.sum()
        return outputs, total
"""),
    # 5. Lightning: validation_step runs without grad (the 2.x epoch-end pattern).
    textwrap.dedent("""\
    import lightning.pytorch as pl
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class LitModel(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(32, 4)
            self.validation_step_outputs = []

        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self.net(x), y)
            self.validation_step_outputs.append(loss)
            return loss

        def on_validation_epoch_end(self):
            self.log("val_loss", torch.stack(self.validation_step_outputs).mean())
            self.validation_step_outputs.clear()
"""),
    # 6. Deferred backward: the kept losses are differentiated later (accumulation).
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for step, (x, y) in enumerate(loader):
        losses.append(nn.functional.mse_loss(model(x), y))
        if (step + 1) % 4 == 0:
            torch.stack(losses).mean().backward()
            optimizer.step()
            optimizer.zero_grad()
            losses = []
"""),
    # 7. Parameters collected for an optimizer (diffusers dreambooth pattern).
    textwrap.dedent("""\
    import torch
    from transformers import CLIPTextModel

    text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-base-patch32")
    params_to_optimize = []
    for name, param in text_encoder.named_parameters():
        if "token_embedding" in name:
            param.requires_grad = True
            params_to_optimize.append(param)
    optimizer = torch.optim.AdamW(params_to_optimize, lr=1e-4)
    for batch in loader:
        loss = text_encoder(batch).last_hidden_state.mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # 8. A container rebuilt every iteration, and a within-step sum that is backwarded.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    heads = nn.ModuleList([nn.Linear(8, 1) for _ in range(3)])
    optimizer = torch.optim.SGD(heads.parameters(), lr=0.1)
    for x, y in loader:
        outs = []
        loss = 0
        for head in heads:
            out = head(x)
            outs.append(out)
            loss += nn.functional.mse_loss(out, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # 9. A helper accumulates a loss and returns it; the caller backwards it (vqgan pattern).
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    vgg = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Conv2d(8, 8, 3))
    generator = nn.Conv2d(3, 3, 1)
    optimizer = torch.optim.Adam(generator.parameters())


    def get_perceptual_loss(fake, real):
        perceptual_loss = 0.0
        for layer in vgg:
            fake, real = layer(fake), layer(real)
            perceptual_loss += F.l1_loss(fake, real)
        return perceptual_loss


    for images in loader:
        loss = get_perceptual_loss(generator(images), images)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # 10. REINFORCE: log-probabilities are kept on purpose and backwarded at episode end.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from torch.distributions import Categorical


    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)
            self.saved_log_probs = []
            self.rewards = []

        def forward(self, x):
            return torch.softmax(self.fc(x), dim=-1)


    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)


    def select_action(state):
        probs = policy(state)
        m = Categorical(probs)
        action = m.sample()
        policy.saved_log_probs.append(m.log_prob(action))
        return action.item()


    def finish_episode():
        policy_loss = [-log_prob * r for log_prob, r in zip(policy.saved_log_probs, policy.rewards)]
        optimizer.zero_grad()
        torch.cat(policy_loss).sum().backward()
        optimizer.step()
        del policy.saved_log_probs[:]
"""),
    # 11. Lists returned to a caller that differentiates them with autograd.grad (boxdiff pattern).
    textwrap.dedent("""\
    import torch


    class Guidance:
        def __init__(self, unet):
            self.unet = unet

        def distances(self, maps):
            dist_x, dist_y = [], []
            for m in maps:
                dist_x.append(m.sum(0) * 2)
                dist_y.append(m.sum(1) * 2)
            return dist_x, dist_y

        def step(self, latents, maps):
            latents.requires_grad_(True)
            dist_x, dist_y = self.distances(maps)
            loss = sum(x.mean() for x in dist_x) + sum(y.mean() for y in dist_y)
            grad = torch.autograd.grad(loss, [latents])[0]
            return latents - grad
"""),
    # 12. Modules and buffers registered in __init__, and targets computed without grad.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Ensemble(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.members = nn.ModuleList()
            for _ in range(n):
                self.members.append(nn.Linear(4, 4))
            self.register_buffer("scale", torch.ones(4))


    online, target = nn.Linear(4, 2), nn.Linear(4, 2)
    optimizer = torch.optim.Adam(online.parameters())
    targets = []
    for state, reward in loader:
        with torch.no_grad():
            target_q = reward + 0.99 * target(state).max(1)[0]
        targets.append(target_q)
        loss = (online(state).max(1)[0] - target_q).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # 13. A meter from another file gets the loss: what it keeps is unknown, so its
    #     averages are not assumed to carry a graph; the step count never does.
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from metrics import RunningStats

    model = nn.Linear(16, 4)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


    def train_epoch(loader, seen):
        stats = RunningStats()
        for x, y in loader:
            seen += 1
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            stats.update(loss, logits, y)
        return stats.loss.average, stats.accuracy.average, seen


    curve = {"loss": [], "seen": []}
    seen = 0
    for epoch in range(5):
        epoch_loss, epoch_acc, seen = train_epoch(loader, seen)
        curve["loss"].append(epoch_loss)
        curve["seen"].append(seen)
"""),
    # the fix of SSA-SC issue 2: the per-key totals are numbers
    """\
def train(model, optimizer, loader, epochs, logger):
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
                epoch_loss[l_key] += loss[l_key].item()
        for l_key in epoch_loss:
            logger.info(f"{l_key}: {epoch_loss[l_key] / (t + 1):.4f}")
""",
    # the Brax fix: the negated loss summed as a number; a negated constant is no graph
    textwrap.dedent("""\
    import torch


    def train(env, agent, num_updates=10000):
        optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)
        total_loss = 0
        best = -1.0
        obs = env.reset()
        for update in range(num_updates):
            actions = agent(obs)
            obs, reward, done = env.step(actions.detach())
            loss = -(reward.detach() * actions.sum(-1)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += float(loss)
            sign = -1
            best += sign
            if update % 1000 == 0:
                print(update, total_loss / (update + 1), best)
"""),
    # one optimizer step of a DeepSpeed engine: the micro-batch losses of this step live in
    # a local list that dies with the call; the engine owns the accumulation
    textwrap.dedent("""\
    import torch


    def train_step(cfg, batches, engine):
        micro_losses = []
        for _ in range(cfg.gradient_accumulation_steps):
            tokens = next(batches).cuda()
            loss = engine(tokens).float().mean()
            micro_losses.append(loss)
            engine.backward(loss)
            engine.step()
        return torch.stack([t.detach() for t in micro_losses]).mean().item()
"""),
)


_OUTPUT_DICTS = textwrap.dedent("""
    import horovod.torch as hvd
    import torch

    hvd.init()
    model = DepthModel().cuda()
    optimizer = hvd.DistributedOptimizer(torch.optim.Adam(model.parameters(), lr=2e-4),
                                         named_parameters=model.named_parameters())


    def train_epoch(loader):
        model.train()
        outputs = []
        for batch in loader:
            optimizer.zero_grad()
            output = model(batch)
            output["loss"].backward()
            optimizer.step()
            outputs.append({kept}){pin}
        return outputs


    def training_epoch_end(outputs):
        loss = torch.stack([o["loss"] for o in outputs]).mean()
        return hvd.allreduce(loss).item()


    for epoch in range(50):
        print(epoch, training_epoch_end(train_epoch(loader)))
""")

GOOD_EXAMPLES += (
    # the maintainer's fix: only the detached loss is kept
    _OUTPUT_DICTS.format(kept='{"loss": output["loss"].detach()}', pin=""),
)
