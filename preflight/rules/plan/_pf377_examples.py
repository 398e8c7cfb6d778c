"""PF377 examples: small Hydra apps (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torchvision
    from omegaconf import DictConfig

    from loop import fit


    @hydra.main(version_base="1.3", config_path="configs", config_name="train")
    def main(cfg: DictConfig):
        model = getattr(torchvision.models, cfg.model.arch)(num_classes=1000)
        fit(model, cfg.data.root, epochs=cfg.epochs, lr=cfg.lr)


    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - data: imagenet
      {model}
      - _self_

    epochs: 90
    lr: 0.1
    # --- configs/experiment/resnet101_long.yaml
    # @package _global_
    defaults:
      - override /model: {experiment}
      - _self_

    epochs: 300
    lr: 0.2
    # --- configs/model/resnet18.yaml
    arch: resnet18
    # --- configs/model/resnet34.yaml
    arch: resnet34
    # --- configs/model/resnet101.yaml
    arch: resnet101
    # --- configs/data/imagenet.yaml
    root: /datasets/imagenet
    # --- launch
    python train.py {args}
""")

_OVERRIDDEN = "- model: resnet18\n  - override model: resnet34{pin}"


def _app(model: str = _OVERRIDDEN, pin: str = "", experiment: str = "resnet101",
         args: str = "+experiment=resnet101_long") -> str:
    return _APP.format(model=model.format(pin=pin), experiment=experiment, args=args)


PF377_BAD = [
    # hydra issue 3229 (the held-out case): the experiment's override of model loses to the primary's
    _app(pin="  # warning: PF377"),
]

PF377_GOOD = [
    # the fix: the primary selects resnet34 directly, the experiment's override applies
    _app(model="- model: resnet34"),
    # the experiment overrides to the primary's own option: nothing is lost
    _app(experiment="resnet34"),
    # not launched with the experiment
    _app(args="epochs=10"),
    # tricky-correct: the command line selects the model, which does win
    _app(args="model=resnet101"),
]
