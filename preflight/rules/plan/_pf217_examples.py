"""PF217 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg.dataset.name, cfg.model.distance_scoring_layer, cfg.model.top_k_scores, cfg.epochs)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
    {defaults}
      - _self_

    epochs: 40
    # --- conf/dataset/stairs.yaml
    # @package _global_
    dataset:
      name: seven_scenes_stairs
    # --- conf/dataset/synthetic.yaml
    # @package _global_
    dataset:
      name: synthetic_triangle
    model:
      distance_scoring_layer: true{pin}
    # --- conf/model/default.yaml
    distance_scoring_layer: false
    top_k_scores: 20
    # --- launch
    python train.py dataset=synthetic{extra}
""")

_DATASET_FIRST = "  - dataset: stairs\n  - model: default"
_MODEL_FIRST = "  - model: default\n  - dataset: stairs"

BAD_EXAMPLES = [
    # hydra issue 346: the dataset option sets a model key, model/default.yaml is merged after it
    _APP.format(defaults=_DATASET_FIRST, pin="  # warning: PF217", extra=""),
]

GOOD_EXAMPLES = [
    # the fix: the model group first, the dataset option's value merged over it
    _APP.format(defaults=_MODEL_FIRST, pin="", extra=""),
    # tricky-correct: the launch line sets the key itself (the override is applied last)
    _APP.format(defaults=_DATASET_FIRST, pin="", extra=" model.distance_scoring_layer=true"),
    # tricky-correct: the later option gives the same value
    _APP.format(defaults=_DATASET_FIRST, pin="", extra="").replace(
        "distance_scoring_layer: false", "distance_scoring_layer: true"),
]
