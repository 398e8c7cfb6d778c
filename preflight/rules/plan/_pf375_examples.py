"""PF375 examples: small Hydra apps (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig

    from forecasting import build_model, fit


    @hydra.main(version_base=None, config_path="conf", config_name="config"){pin}
    def main(cfg: DictConfig):
        fit(build_model(cfg.model), max_epochs=cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: tft
      - {entry}
      - _self_

    trainer:
      max_epochs: 20
    # --- conf/model/tft.yaml
    config:
      hidden_size: 128
    # --- conf/overrides/best.yaml
    # @package _global_
    trainer:
      max_epochs: 40
    # --- launch
    python train.py {args}
""")

_GLOBAL = "optional overrides@_global_:"

PF375_BAD = [
    # hydra issue 2628 (the held-out case): the plain group name of an @_global_ entry, hydra-core 1.2+
    _APP.format(pin="  # error: PF375", entry=_GLOBAL, args="model=tft overrides=best trainer.max_epochs=50"),
    # a group relocated to another package
    _APP.format(pin="  # error: PF375", entry="overrides@tuning: best", args="overrides=best"),
]

PF375_GOOD = [
    # the fix: the override names the package
    _APP.format(pin="", entry=_GLOBAL, args="model=tft overrides@_global_=best"),
    # an append is another entry, not an override of this one
    _APP.format(pin="", entry="model@encoder: tft", args="+overrides=best"),
    # no override of the packaged group
    _APP.format(pin="", entry=_GLOBAL, args="model=tft trainer.max_epochs=50"),
    # hydra-core 1.1 still matched the plain group name
    _APP.format(pin="", entry=_GLOBAL, args="overrides=best") + "# --- requirements.txt\nhydra-core==1.1.1\n",
]
