"""PF262 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config"){pin}
    def main(cfg):
        model = torch.nn.Linear(4, 2)
        optimizer = hydra.utils.instantiate(cfg.optimizer, params=model.parameters())
        for _ in range(cfg.trainer.max_epochs):
            optimizer.zero_grad()
            model(torch.randn(8, 4)).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - _self_

    optimizer:
      _target_: torch.optim.AdamW
      lr: 0.001
      betas: [0.9, 0.999]
      eps: 1.0e-8
      weight_decay: 0.01

    trainer:
      max_epochs: 100
    # --- launch
    python train.py {override} trainer.max_epochs=200
""")

PF262_BAD = [
    # facebookresearch/optimizers PR 257: a new `_target_` given as a mapping merges into the old node;
    # betas, eps and weight_decay reach torch.optim.SGD
    _APP.format(pin="  # warning: PF262", override="'optimizer={_target_:torch.optim.SGD,lr:0.1}'"),
    # `++` merges the same way
    _APP.format(pin="  # warning: PF262", override="'++optimizer={_target_: torch.optim.SGD, lr: 0.1}'"),
]

PF262_GOOD = [
    # the fix of the PR: delete the node, then add the new one
    _APP.format(pin="", override="'~optimizer' '+optimizer={_target_:torch.optim.SGD,lr:0.1}'"),
    # tricky-correct: the same target with a new learning rate; the merge is the point
    _APP.format(pin="", override="'optimizer={_target_:torch.optim.AdamW,lr:0.01}'"),
    # a mapping without `_target_` updates values of the node
    _APP.format(pin="", override="'optimizer={lr:0.01,weight_decay:0.0}'"),
    # tricky-correct: the mapping gives every key the node has, so nothing of AdamW is left
    _APP.format(pin="", override="'optimizer={_target_:torch.optim.Adam,lr:0.1,betas:[0.9,0.99],eps:1e-6,"
                                 "weight_decay:0.0}'"),
]

PF262_GOOD.append(
    # tricky-correct: the node is set to null first, then given the mapping (nothing of AdamW is left)
    _APP.format(pin="", override="optimizer=null '++optimizer={_target_:torch.optim.SGD,lr:0.1}'"))

# An experiment config (`# @package _global_`) merges into the composed node the same way (hydra issue 1896).
_EXPERIMENT_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        criterion = instantiate(cfg.model.loss)
        model = torch.nn.Linear(4, 1)
        print(criterion(model(torch.randn(8, 4)), torch.rand(8, 1)))


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - _self_
      - model/backbone: resnet
    model:
      batch_size: 8
      loss:
        _target_: losses.FocalLoss
        from_logits: true
        alpha: 0.2
    # --- conf/model/backbone/resnet.yaml
    _target_: nets.ResNet
    depth: 50
    # --- conf/model/backbone/vit.yaml
    _target_: nets.ViT
    patch: 16
""")

PF262_BAD += [
    # hydra issue 1896: the experiment's loss keeps from_logits and alpha of the FocalLoss node
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/experiment/new_loss.yaml
    # @package _global_
    model:
      loss:
        _target_: losses.SmoothL1  # warning: PF262
        beta: 0.3
    """),
    # the node comes from a group option of the defaults list: depth stays beside the ViT target
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/experiment/vit.yaml
    # @package _global_
    model:
      backbone:
        _target_: nets.ViT  # warning: PF262
        patch: 16
    """),
    # the experiment selects the ViT option, then writes another target over it: patch stays
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/experiment/swin.yaml
    # @package _global_
    defaults:
      - override /model/backbone: vit
    model:
      backbone:
        _target_: nets.Swin  # warning: PF262
        window: 7
    """),
]

PF262_GOOD += [
    # the fix of the issue: the experiment selects another option of a config group (and tunes it: the
    # node it merges into is the selected option's)
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/experiment/vit.yaml
    # @package _global_
    defaults:
      - override /model/backbone: vit
    model:
      batch_size: 16
      backbone:
        _target_: nets.ViT
        patch: 8
    """),
    # tricky-correct: the same target with new values (the merge is the point), and a new target that
    # gives every key of the node
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/experiment/tuned.yaml
    # @package _global_
    model:
      loss:
        _target_: losses.FocalLoss
        alpha: 0.5
      backbone:
        _target_: nets.ResNeXt
        depth: 101
    """),
    # tricky-correct: a group option (not an experiment merged over the node) holds a new target
    _EXPERIMENT_APP + textwrap.dedent("""\
    # --- conf/model/loss/l1.yaml
    _target_: losses.L1
    reduction: mean
    """),
]
