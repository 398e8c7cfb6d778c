"""PF569 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

BAD_EXAMPLES = [
    # hydra issue 405: a learning rate scaled by the batch size, written as arithmetic
    """
# --- conf/config.yaml
defaults:
  - optimizer: sgd
  - _self_
data:
  batch_size: 1024
# --- conf/optimizer/sgd.yaml
base_lr: 0.1
lr: ${optimizer.base_lr} * ${data.batch_size} / 256  # warning: PF569
momentum: 0.9
""",
    # a number times an interpolation
    """
# --- conf/config.yaml
data:
  first_subsampling: 0.02
model:
  radius: 50 * ${data.first_subsampling}  # warning: PF569
""",
]

GOOD_EXAMPLES = [
    # the fix: an eval resolver
    """
# --- conf/config.yaml
defaults:
  - optimizer: sgd
  - _self_
data:
  batch_size: 1024
# --- conf/optimizer/sgd.yaml
base_lr: 0.1
lr: ${eval:'${optimizer.base_lr} * ${data.batch_size} / 256'}
momentum: 0.9
""",
    # tricky-correct: string interpolations that are paths, names and ranges, not arithmetic
    """
# --- conf/config.yaml
name: ${model.name}-${data.size}
tag: ${model.name}_${seed}
run_dir: ${hydra:runtime.cwd}/outputs/${now:%Y-%m-%d}
ckpt: ${paths.root}/checkpoints/epoch-${trainer.max_epochs}
data:
  size: 512
model:
  name: resnet
seed: 1
""",
]
