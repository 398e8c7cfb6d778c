"""PF1090 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # MorvanZhou/PyTorch-Tutorial issue 57: `h_state = h_state.data` commented out
    textwrap.dedent("""
    import numpy as np
    import torch
    import torch.nn as nn


    class RNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(input_size=1, hidden_size=32, batch_first=True)
            self.out = nn.Linear(32, 1)

        def forward(self, x, h_state):
            r_out, h_state = self.rnn(x, h_state)
            return self.out(r_out), h_state


    rnn = RNN()
    optimizer = torch.optim.Adam(rnn.parameters(), lr=0.02)
    loss_func = nn.MSELoss()
    h_state = None
    for step in range(100):
        steps = np.linspace(step * np.pi, (step + 1) * np.pi, 10, dtype=np.float32)
        x = torch.from_numpy(np.sin(steps)[np.newaxis, :, np.newaxis])
        y = torch.from_numpy(np.cos(steps)[np.newaxis, :, np.newaxis])
        prediction, h_state = rnn(x, h_state)  # error: PF1090
        # h_state = h_state.data
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # an LSTM language model whose hidden tuple is initialised once per epoch and carried across
    # batches, with accelerate's backward
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from accelerate import Accelerator


    def train(model, batches, criterion, epochs):
        accelerator = Accelerator()
        opt = torch.optim.SGD(model.parameters(), lr=20.0)
        model, opt = accelerator.prepare(model, opt)
        for epoch in range(epochs):
            hidden = model.init_hidden(20)
            for data, targets in batches:
                output, hidden = model(data, hidden)  # error: PF1090
                loss = criterion(output.view(-1, output.size(-1)), targets.view(-1))
                opt.zero_grad()
                accelerator.backward(loss)
                opt.step()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the state is detached after each step
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    rnn = nn.RNN(1, 32, batch_first=True)
    head = nn.Linear(32, 1)
    optimizer = torch.optim.Adam([*rnn.parameters(), *head.parameters()], lr=0.02)
    h_state = None
    for step in range(100):
        x, y = torch.randn(1, 10, 1), torch.randn(1, 10, 1)
        r_out, h_state = rnn(x, h_state)
        h_state = h_state.detach()
        loss = nn.functional.mse_loss(head(r_out), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # tricky-correct (quark0/darts issue 56): truncated BPTT, repackage_hidden at the start of each batch
    textwrap.dedent("""
    import torch


    def repackage_hidden(h):
        if isinstance(h, torch.Tensor):
            return h.detach()
        return tuple(repackage_hidden(v) for v in h)


    def train_epoch(model, data, criterion, opt, bptt=35):
        hidden = model.init_hidden(20)
        for i in range(0, data.size(0) - 1, bptt):
            x, y = data[i:i + bptt], data[i + 1:i + 1 + bptt]
            hidden = repackage_hidden(hidden)
            output, hidden = model(x, hidden)
            loss = criterion(output.view(-1, output.size(-1)), y.view(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: the state is cut in place, one tensor of the tuple at a time
    textwrap.dedent("""
    def train_epoch(model, loader, criterion, opt):
        h, c = model.init_hidden(32)
        for x, y in loader:
            out, (h, c) = model(x, (h, c))
            h.detach_()
            c.detach_()
            loss = criterion(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: the model's forward returns a detached state
    textwrap.dedent("""
    import torch.nn as nn


    class Stateful(nn.Module):
        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(16, 64, batch_first=True)
            self.fc = nn.Linear(64, 1)

        def forward(self, x, h=None):
            out, h = self.gru(x, h)
            return self.fc(out), h.detach()


    def train(model, loader, opt, loss_fn):
        h = None
        for x, y in loader:
            pred, h = model(x, h)
            loss = loss_fn(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: the state feeds the forward inside an inner per-time-step loop and the backward
    # runs once per sequence, after it: the graph spans the sequence on purpose
    textwrap.dedent("""
    import torch


    def train(cell, head, sequences, opt):
        for seq, target in sequences:
            h = torch.zeros(1, 128)
            for x_t in seq:
                h = cell(x_t, h)
            loss = torch.nn.functional.cross_entropy(head(h), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: an RL rollout carries the recurrent state under no_grad; the update is elsewhere
    textwrap.dedent("""
    import torch


    def rollout(policy, env, steps, opt, buffer):
        obs, state = env.reset(), policy.initial_state()
        for t in range(steps):
            with torch.no_grad():
                action, state = policy(obs, state)
            obs, reward, done, info = env.step(action)
            buffer.add(obs, action, reward)
            loss = buffer.loss()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # the state is recreated for every batch inside the loop
    textwrap.dedent("""
    def train(model, loader, criterion, opt):
        for x, y in loader:
            hidden = model.init_hidden(x.size(0))
            out, hidden = model(x, hidden)
            loss = criterion(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
]

GOOD_EXAMPLES.append(
    # tricky-correct (pytorch/examples distributed/rpc/rnn): the LSTM tuple is cut in place by index
    textwrap.dedent("""
    def run_trainer(model, data_loader, criterion, opt):
        hidden = model.init_hidden(20)
        for data, target in data_loader:
            hidden[0].detach_()
            hidden[1].detach_()
            output, hidden = model(data, hidden)
            loss = criterion(output, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
)
