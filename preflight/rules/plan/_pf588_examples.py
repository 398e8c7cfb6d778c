"""PF588 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = """\
# --- configs/default.yaml
defaults:
  - override hydra/sweeper: optuna
  - _self_
seed: 42
hydra:
  sweeper:
    direction: maximize
    n_trials: 20
"""

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    def run_experiment(cfg: DictConfig) -> float:
        return float(train(cfg))


    @hydra.main(version_base="1.2", config_path="configs", config_name="default")
    def main(cfg: DictConfig){annotation}:
    {body}


    if __name__ == "__main__":
        main()
""")

PF588_BAD = [
    # Stoix PR 49: the entry point runs the experiment and drops its score
    _APP.format(annotation=" -> None", body="    run_experiment(cfg)  # error: PF588\n    print(\"done\")") + _CONFIG,
]

PF588_GOOD = [
    # the fix: the objective is returned
    _APP.format(annotation=" -> float", body="    score = run_experiment(cfg)\n    return score") + _CONFIG,
    # tricky-correct: the same entry point without the Optuna sweeper (the basic sweeper ignores it)
    _APP.format(annotation=" -> None", body="    run_experiment(cfg)") + _CONFIG.replace(
        "  - override hydra/sweeper: optuna\n", "").replace("    direction: maximize\n    n_trials: 20\n",
                                                            "    max_batch_size: 4\n"),
]
