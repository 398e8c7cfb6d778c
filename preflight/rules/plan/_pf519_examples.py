"""PF519 examples: small Hydra apps (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from mypkg.loop import fit


    @hydra.main(config_path="conf", config_name="{name}", version_base=None)
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)
        fit(model, cfg)  # the installed training loop reads the other groups


    if __name__ == "__main__":
        main()
""")

PF519_BAD = [
    # sinusoidal-gradient-descent issue 4: an experiment config extends its base with _self_ first,
    # so the base (composed after it) puts n_sinusoids back to 4
    _APP.format(name="k2") + """\
# --- conf/base.yaml
model:
  _target_: mypkg.Estimator
  n_sinusoids: 4
lr: 1e-3
# --- conf/k2.yaml
defaults:
  - _self_  # warning: PF519
  - base

model:
  n_sinusoids: 2
""",
    # a group option listed after _self_ overrides the file's own value of its package
    _APP.format(name="train") + """\
# --- conf/train.yaml
defaults:
  - _self_  # warning: PF519
  - data: cifar
data:
  batch_size: 256
# --- conf/data/cifar.yaml
_target_: mypkg.CIFARDataModule
batch_size: 64
""",
    # not the primary: a model option that extends a shared model base the same way
    _APP.format(name="train") + """\
# --- conf/train.yaml
defaults:
  - model: small
  - _self_
seed: 0
# --- conf/model/small.yaml
defaults:
  - _self_  # warning: PF519
  - big
depth: 6
# --- conf/model/big.yaml
_target_: mypkg.Net
depth: 24
width: 1024
""",
    # hydra issue 1233 (held-out-28): on a pinned hydra-core 1.0 a primary config without _self_ is
    # merged before its defaults list, so the optimizer option's lr and weight_decay win
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - optimizer: adamw  # warning: PF519
  - data: imagenet
optimizer:
  lr: 3.0e-4
  weight_decay: 0.1
epochs: 300
# --- conf/optimizer/adamw.yaml
# @package _group_
_target_: torch.optim.AdamW
lr: 1.0e-3
weight_decay: 0.01
# --- conf/data/imagenet.yaml
# @package _group_
root: data/imagenet
# --- requirements.txt
hydra-core==1.0.4
""",
]

PF519_GOOD = [
    # the fix: _self_ last, the file's own values win
    _APP.format(name="k2") + """\
# --- conf/base.yaml
model:
  _target_: mypkg.Estimator
  n_sinusoids: 4
# --- conf/k2.yaml
defaults:
  - base
  - _self_

model:
  n_sinusoids: 2
""",
    # lightning-hydra-template's train.yaml: _self_ first, the groups after it live in their own
    # packages, and the experiment (which does override top-level keys) is chosen on the launch line
    _APP.format(name="train") + """\
# --- conf/train.yaml
defaults:
  - _self_
  - model: mnist
  - experiment: null
task_name: train
seed: null
model:
  lr: 0.01
# --- conf/model/mnist.yaml
_target_: mypkg.MNISTModule
# --- conf/experiment/example.yaml
# @package _global_
seed: 12345
# --- launch
python train.py experiment=example
""",
    # hydra issue 326's scaffolding: `_self_` first on purpose, the primary's `???` slots filled by the group
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - _self_
  - optim: adamw

optim:
  name: ???
  lr: ???
epochs: 20
# --- conf/optim/adamw.yaml
name: adamw
lr: 3e-4
""",
    # _self_ first, the base sets the same value: nothing is lost
    _APP.format(name="k2") + """\
# --- conf/base.yaml
lr: 0.001
epochs: 10
# --- conf/k2.yaml
defaults:
  - _self_
  - base
lr: 0.001
""",
    # the launch line sets the key again: the file's value is not what the ordering lost
    _APP.format(name="k2") + """\
# --- conf/base.yaml
model:
  _target_: mypkg.Estimator
lr: 0.001
# --- conf/k2.yaml
defaults:
  - _self_
  - base
lr: 0.01
# --- launch
python train.py lr=0.05
""",
    # a ??? in the base does not replace a value (OmegaConf keeps the earlier value)
    _APP.format(name="k2") + """\
# --- conf/base.yaml
lr: ???
# --- conf/k2.yaml
defaults:
  - _self_
  - base
lr: 0.01
""",
    # VISSL PR 368: _self_ first on purpose; the primary holds generic scaffolding and the selected
    # dataset config, an overlay at the top level (`# @package _global_`), overrides it
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - _self_
  - dataset: cifar10
model:
  _target_: torchvision.models.resnet18
  num_classes: 1000
data:
  image_size: 224
# --- conf/dataset/cifar10.yaml
# @package _global_
model:
  num_classes: 10
data:
  image_size: 32
""",
    # the fix of hydra issue 1233: hydra-core 1.1, which appends the missing _self_ last
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - optimizer: adamw
optimizer:
  lr: 3.0e-4
# --- conf/optimizer/adamw.yaml
_target_: torch.optim.AdamW
lr: 1.0e-3
# --- requirements.txt
hydra-core==1.1.1
""",
    # tricky: hydra-core 1.0 but the primary sets only keys the option does not (nothing lost), or no
    # version pinned at all (1.1 or later assumed)
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - optimizer: adamw
optimizer:
  betas: [0.9, 0.95]
# --- conf/optimizer/adamw.yaml
# @package _group_
_target_: torch.optim.AdamW
lr: 1.0e-3
# --- requirements.txt
hydra-core==1.0.4
""",
    _APP.format(name="config") + """\
# --- conf/config.yaml
defaults:
  - optimizer: adamw
optimizer:
  lr: 3.0e-4
# --- conf/optimizer/adamw.yaml
_target_: torch.optim.AdamW
lr: 1.0e-3
# --- requirements.txt
hydra-core>=1.0
""",
]
