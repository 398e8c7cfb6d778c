"""PF548 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(config_path=".", config_name="config", version_base="1.3")
    def main(cfg: DictConfig) -> float:
        return float(cfg.lr)


    if __name__ == "__main__":
        main()
""")

_CONFIG = """\
# --- config.yaml
defaults:
  - override hydra/sweeper: optuna
{launcher}  - _self_

hydra:
  sweeper:
    direction: minimize
    n_trials: 40
    n_jobs: {jobs}
    params:
      lr: tag(log, interval(1e-5, 1e-2))

lr: 0.001
"""

BAD_EXAMPLES = [
    # hydra issue 1974: four trials per batch, run one after another
    _APP + _CONFIG.format(launcher="", jobs=4) + """\
# --- launch
python train.py --multirun
# --- expect
config.yaml:9: warning: PF548
""",
]

GOOD_EXAMPLES = [
    # the fix: a parallel launcher
    _APP + _CONFIG.format(launcher="  - override hydra/launcher: joblib\n", jobs=4) + """\
# --- launch
python train.py --multirun
""",
    # tricky-correct: the launcher chosen on the command line
    _APP + _CONFIG.format(launcher="", jobs=4) + """\
# --- launch
python train.py --multirun hydra/launcher=joblib
""",
    # one trial at a time is what the config says
    _APP + _CONFIG.format(launcher="", jobs=1) + """\
# --- launch
python train.py --multirun
""",
]
