"""PF589 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base=None, config_path="cfgs", config_name="config")
    def main(cfg):
        device = torch.device(f"cuda:{cfg.device}")
        train(cfg, device)


    if __name__ == "__main__":
        main()
""")

_CONFIG = """\
# --- cfgs/config.yaml
defaults:
  - override hydra/launcher: {launcher}
  - _self_
seed: 1
device: {device}
hydra:
  launcher:
    gpus_per_node: {gpus}
    tasks_per_node: 1
"""

PF589_BAD = [
    # hydra issue 2602: device 1 in a one-GPU submitit job
    _APP + _CONFIG.format(launcher="submitit_local", device="1  # error: PF589", gpus=1),
]

PF589_GOOD = [
    # the fix
    _APP + _CONFIG.format(launcher="submitit_local", device="0", gpus=1),
    # tricky-correct: index 1 of a job given two GPUs exists
    _APP + _CONFIG.format(launcher="submitit_slurm", device="1", gpus=2),
]
