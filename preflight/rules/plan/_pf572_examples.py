"""PF572 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra

    from classifier import fit_and_validate


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg) -> float:
        return fit_and_validate(lr=cfg.model.lr, epochs=cfg.epochs)


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # hydra#2047: the sweeper's settings at the top level
    _APP + """\
# --- conf/config.yaml
defaults:
  - override hydra/sweeper: optuna

model:
  lr: 0.001
epochs: 20
direction: maximize  # warning: PF572
study_name: classifier
n_trials: 20
""",
    # the absolute group path of an experiment file
    _APP + """\
# --- conf/config.yaml
defaults:
  - override /hydra/sweeper: optuna

model:
  lr: 0.001
epochs: 20
n_trials: 50  # warning: PF572
search_space:
  model.lr:
    type: float
    low: 0.0001
    high: 0.01
""",
]

GOOD_EXAMPLES = [
    # the fix
    _APP + """\
# --- conf/config.yaml
defaults:
  - override hydra/sweeper: optuna

model:
  lr: 0.001
epochs: 20
hydra:
  sweeper:
    direction: maximize
    study_name: classifier
    n_trials: 20
    params:
      model.lr: choice(0.01, 0.001)
""",
    # tricky-correct: the app's own `direction` and `n_trials` keys, read by the app
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg) -> float:
        return run(cfg.direction, cfg.n_trials)
    # --- conf/config.yaml
    defaults:
      - override hydra/sweeper: optuna

    direction: maximize
    n_trials: 5
    hydra:
      sweeper:
        n_jobs: 1
"""),
    # no Optuna sweeper selected
    _APP + """\
# --- conf/config.yaml
model:
  lr: 0.001
epochs: 20
direction: maximize
n_trials: 20
""",
]
