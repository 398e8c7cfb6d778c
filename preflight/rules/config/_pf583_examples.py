"""PF583 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

BAD_EXAMPLES = [
    # hydra issue 1951: a misspelled `optional` on a specialisation entry
    """
# --- conf/config.yaml
defaults:
  - dataset: imagenet
  - model: alexnet
  - optinal dataset_model: ${dataset}_${model}  # error: PF583
  - _self_
epochs: 90
# --- conf/dataset/imagenet.yaml
name: imagenet
# --- conf/model/alexnet.yaml
arch: alexnet
# --- conf/dataset_model/imagenet_alexnet.yaml
# @package _global_
lr: 0.02
""",
    # an experiment config that overrides with a misspelled keyword, and a misspelled _self_
    """
# --- conf/experiment/big.yaml
# @package _global_
defaults:
  - overide /model: large  # error: PF583
  - _self  # error: PF583
trainer:
  max_epochs: 300
""",
]

GOOD_EXAMPLES = [
    # the fixed specialisation entry
    """
# --- conf/config.yaml
defaults:
  - dataset: imagenet
  - model: alexnet
  - optional dataset_model: ${dataset}_${model}
  - _self_
epochs: 90
""",
    # tricky: both keywords together, a group whose name has no keyword, and a plain option list
    """
# --- conf/experiment/big.yaml
# @package _global_
defaults:
  - override /model: large
  - optional override /callbacks: early_stop
  - db: mysql
  - self_supervised: simclr
  - _self_
trainer:
  max_epochs: 300
""",
]
