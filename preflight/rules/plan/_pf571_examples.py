"""PF571 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import wandb


    @hydra.main(version_base=None, config_path="configs", config_name="config")
    def main(cfg):
        wandb.init(project="demo")
        wandb.log({"metric": abs(cfg.a) + abs(cfg.b)})


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    a: 0
    b: -1
""")

_SWEEP = """\
# --- sweep.yaml
program: train.py
method: bayes
metric:
  goal: maximize
  name: metric
parameters:
  a:
    values: [1, 2]
  b:
    min: 0
    max: 1
command:{pin}
{command}
"""

BAD_EXAMPLES = [
    # wandb#4686: the command drops the sampled parameters
    _APP + _SWEEP.format(pin="  # warning: PF571", command="  - python\n  - ${program}"),
]

GOOD_EXAMPLES = [
    # the fix
    _APP + _SWEEP.format(pin="", command="  - ${env}\n  - python\n  - ${program}\n  - ${args_no_hyphens}"),
    # tricky-correct: a plain W&B script reads the sampled values from wandb.config
    """
# --- train.py
import wandb

run = wandb.init(project="demo")
wandb.log({"metric": abs(run.config.a) + abs(run.config.b)})
""" + _SWEEP.format(pin="", command="  - python\n  - ${program}"),
]
