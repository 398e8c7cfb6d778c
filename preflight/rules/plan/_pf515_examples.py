"""PF515 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF515_BAD = [
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
    # --- config.yaml
    loss:
      _target_: torch.nn.CrossEntropyLoss
    model:
      _target_: torch.nn.Sequential
      _args_:
        - _target_: torch.nn.Linear
          in_features: 64
          out_features: 10
        - _target_: torch.nn.Softmax  # error: PF515
          dim: 1
"""),
]

PF515_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
    # --- config.yaml
    loss:
      _target_: torch.nn.CrossEntropyLoss
    model:
      _target_: torch.nn.Sequential
      _args_:
        - _target_: torch.nn.Linear
          in_features: 64
          out_features: 10
"""),
    textwrap.dedent("""
    # --- train.py
    from hydra.utils import instantiate

    model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
    # --- config.yaml
    loss:
      _target_: torch.nn.NLLLoss
    model:
      _target_: torch.nn.Sequential
      _args_:
        - _target_: torch.nn.Linear
          in_features: 64
          out_features: 10
        - _target_: torch.nn.LogSoftmax
          dim: 1
"""),
]
