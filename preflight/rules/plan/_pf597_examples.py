"""PF597 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    from config import load_config

    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default=None)
    cfg = load_config(parser.parse_args().config)
    for name, spec in cfg.validation.losses.items():
        print(name, spec.weight)
    # --- default_config.yml
    training:
      lr: 1.0e-4
    validation:
      losses:
        LossPhysical:
          weight: 1.0
""")


def _project(config_py: str, run: str, pin: str = "") -> str:
    return _TRAIN + textwrap.dedent("""\
        # --- config.py
        from pathlib import Path

        from omegaconf import OmegaConf


        def load_config(path):
            default = OmegaConf.load(Path(__file__).parent / "default_config.yml")
            override = OmegaConf.load(path) if path else OmegaConf.create()
        """) + textwrap.indent(config_py.replace("{pin}", pin), "    ") + "\n" + textwrap.dedent("""\
        # --- configs/run.yml
        """) + run + "# --- launch\npython train.py --config configs/run.yml\n"


_MERGE = "return OmegaConf.merge(default, override){pin}"
_JEPA = "validation:\n  losses:\n    LossLatentSSL:\n      weight: 1.0\n"

BAD_EXAMPLES = [
    # ecmwf/WeatherGenerator issue 1510: the run config's loss is added to the default's LossPhysical
    _project(_MERGE, _JEPA, "  # warning: PF597"),
]

GOOD_EXAMPLES = [
    # the fix of the issue: the node is replaced after the merge
    _project("cfg = OmegaConf.merge(default, override)\n"
             "losses = OmegaConf.select(override, \"validation.losses\")\n"
             "if losses is not None:\n"
             "    OmegaConf.update(cfg, \"validation.losses\", losses, merge=False)\n"
             "return cfg", _JEPA),
    # tricky-correct: the run config tunes an entry of the default (a partial update)
    _project(_MERGE, "validation:\n  losses:\n    LossPhysical:\n      weight: 0.5\n    LossLatentSSL:\n"
                     "      weight: 1.0\n"),
    # tricky-correct: the run config changes plain values only
    _project(_MERGE, "training:\n  lr: 3.0e-4\n"),
]
