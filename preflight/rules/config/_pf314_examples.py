"""PF314 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent('''\
    # --- train.py
    import hydra


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        print(cfg.train.lr)


    if __name__ == "__main__":
        main()
''')

BAD_EXAMPLES = [
    # hydra issue 3031 shape: a SLURM launcher chosen from an experiment selected with +train=experiment
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - override hydra/launcher: submitit_local
      - _self_
    train:
      lr: 0.001
    # --- conf/train/experiment.yaml
    defaults:
      - override /hydra/launcher: submitit_slurm  # warning: PF314
    lr: 0.0003
"""),
    # a sweeper chosen in a non-global group file with another package header
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - search: null
      - _self_
    train:
      lr: 0.001
    # --- conf/search/optuna.yaml
    # @package _group_
    defaults:
      - override /hydra/sweeper: optuna  # warning: PF314
    n_trials: 20
"""),
    # hydra issue 3231 (held-out-27): the launcher chosen inside the experiments the multirun sweeps
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - _self_
    train:
      lr: 0.001
    # --- conf/experiment/small.yaml
    # @package _global_
    defaults:
      - override /hydra/launcher: joblib  # warning: PF314
    train:
      lr: 0.003
    # --- conf/experiment/large.yaml
    # @package _global_
    defaults:
      - override /hydra/launcher: joblib  # warning: PF314
    train:
      lr: 0.001
    hydra:
      launcher:  # warning: PF314
        n_jobs: 2
    # --- launch
    python train.py --multirun +experiment=small,large
"""),
]

GOOD_EXAMPLES = [
    # the fix
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - override hydra/launcher: submitit_local
      - _self_
    train:
      lr: 0.001
    # --- conf/train/experiment.yaml
    # @package _global_
    defaults:
      - override /hydra/launcher: submitit_slurm
    train:
      lr: 0.0003
"""),
    # tricky: the group is selected into _global_, and another group file overrides an app group only
    _APP.replace("print(cfg.train.lr)", "print(cfg.train.lr, cfg.model.width)") + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - experiment@_global_: null
      - model: small
      - override hydra/launcher: basic
      - _self_
    train:
      lr: 0.001
    # --- conf/experiment/slurm.yaml
    defaults:
      - override /hydra/launcher: submitit_slurm
    train:
      lr: 0.0003
    # --- conf/model/small.yaml
    width: 256
    # --- conf/model/big.yaml
    defaults:
      - override /model/head: wide
    width: 1024
"""),
    # the fix of hydra issue 3231: the launcher on the command line, the experiments swept
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - _self_
    train:
      lr: 0.001
    # --- conf/experiment/small.yaml
    # @package _global_
    train:
      lr: 0.003
    # --- conf/experiment/large.yaml
    # @package _global_
    train:
      lr: 0.001
    # --- launch
    python train.py --multirun hydra/launcher=joblib +experiment=small,large
"""),
    # tricky: one experiment selected (no sweep), and a swept option that overrides job_logging only
    _APP + textwrap.dedent("""\
    # --- conf/config.yaml
    defaults:
      - _self_
    train:
      lr: 0.001
    # --- conf/experiment/slurm.yaml
    # @package _global_
    defaults:
      - override /hydra/launcher: submitit_slurm
    train:
      lr: 0.003
    # --- conf/model/small.yaml
    # @package _global_
    defaults:
      - override /hydra/job_logging: disabled
    width: 64
    hydra:
      job:
        chdir: true
    # --- conf/model/large.yaml
    # @package _global_
    width: 256
    # --- launch
    python train.py --multirun +experiment=slurm model=small,large train.lr=0.1,0.01
"""),
]
