"""PF339 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train.py
    import torch
    import yaml

    DEFAULT_UPDATES = 8

    with open("config.yml") as f:
        cfg = yaml.safe_load(f)
    updates = cfg.get("gradient_updates_per_pass_count", DEFAULT_UPDATES)
    lr = cfg.get("learning_rate", 0.01)
    model = torch.nn.Linear(784, 10)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(cfg["epoch_count"]):
        for _ in range(updates):
            loss = model(torch.randn(8, 784)).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    # --- config.yml
    experiment_name: mnist_fedavg
    epoch_count: 38
    {key}: 2  # {pin}
    learning_rate: 0.001
""")

BAD_EXAMPLES = [
    # distributed-learning-contributivity issue 184: two letters dropped, the default 8 is used
    _JOB.format(key="gradit_updates_per_pass_count", pin="warning: PF339"),
    # a swapped pair
    _JOB.format(key="gradient_udpates_per_pass_count", pin="warning: PF339"),
]

GOOD_EXAMPLES = [
    # the fix
    _JOB.format(key="gradient_updates_per_pass_count", pin=""),
    # tricky: another key the code does not read yet, one word away (local vs gradient)
    _JOB.format(key="local_updates_per_pass_count", pin=""),
    # tricky: the key is named elsewhere in the code (read another way)
    _JOB.format(key="gradit_updates_per_pass_count", pin="").replace(
        'lr = cfg.get("learning_rate", 0.01)',
        'lr = cfg.get("learning_rate", 0.01)\nprint(cfg["gradit_updates_per_pass_count"])'),
]
