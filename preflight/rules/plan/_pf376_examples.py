"""PF376 examples: small Hydra apps (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig

    from igm_modules import Thickness, fit


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        thk = Thickness(grid_size=cfg.thk.grid_size, units=cfg.thk.units, shape=tuple(cfg.thk.shape)){rpin}
        fit(thk, lr=cfg.iceflow.emulator_lr, max_steps=cfg.max_steps)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - _self_
      - iceflow: default{primary}

    max_steps: 20000
    # --- conf/thk/default.yaml
    grid_size: 100
    units: meters
    shape: [2, 100, 10]
    # --- conf/iceflow/default.yaml
    emulator_lr: 1.0e-4
    nb_layers: 8
    # --- conf/experiment/custom.yaml
    # @package _global_
    {defaults}thk:{pin}
      {fields}
    iceflow:
      emulator_lr: 2.0e-5
    # --- launch
    python train.py {args}
""")


def _app(pin: str = "", defaults: str = "", fields: str = "units: centimeters", primary: str = "",
         args: str = "+experiment=custom", rpin: str = "") -> str:
    return _APP.format(pin=pin, defaults=defaults, fields=fields, primary=primary, args=args, rpin=rpin)


PF376_BAD = [
    # hydra issue 2982 (the held-out case): the experiment sets thk.units, the thk group is never selected
    # (the read of the lost keys then fails: "Key 'grid_size' is not in struct", PF694, det129)
    _app(pin="  # warning: PF376", rpin="  # warning: PF694"),
    # two of the group's three fields given: shape is still lost
    _app(pin="  # warning: PF376", fields="units: centimeters\n  grid_size: 50", rpin="  # warning: PF694"),
]

PF376_GOOD = [
    # the fix: the experiment selects the group before overriding the field
    _app(defaults="defaults:\n  - /thk: default\n"),
    # the primary selects it
    _app(primary="\n  - thk: default"),
    # tricky-correct: the experiment gives the whole node (every key of the option)
    _app(fields="grid_size: 100\n  units: centimeters\n  shape: [2, 100, 10]"),
    # not launched with the experiment
    _app(args="max_steps=100"),
]
