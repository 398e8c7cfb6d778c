"""PF599 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_FILES = textwrap.dedent("""
    # --- configs/base.yaml
    optim:
      lr: 1.0e-3
      weight_decay: 0.05
    head_optim: ${optim}
    backbone_optim: ${optim}
    # --- configs/vit_small.yaml
    backbone_optim:
      lr: 1.0e-4
""")


def _app(body: str, launch: str = "python train.py optim.weight_decay=0.1") -> str:
    return textwrap.dedent("""
        # --- train.py
        import sys

        from omegaconf import OmegaConf

        base = OmegaConf.load("configs/base.yaml")
        tweak = OmegaConf.load("configs/vit_small.yaml")
        cli = OmegaConf.from_dotlist(sys.argv[1:])
    """) + body + "\nprint(cfg.backbone_optim.weight_decay)\n" + _FILES + "# --- launch\n" + launch + "\n"


BAD_EXAMPLES = [
    # omegaconf issue 1184: backbone_optim is expanded by the tweak before weight_decay=0.1 is merged
    _app("cfg = OmegaConf.merge(base, tweak, cli)  # warning: PF599"),
]

GOOD_EXAMPLES = [
    # the fix: the command line reaches the base before the tweak copies optim
    _app("cfg = OmegaConf.merge(base, cli)\ncfg = OmegaConf.merge(cfg, tweak, cli)"),
    # tricky-correct: the launch line overrides the copy's own key, not the interpolated source
    _app("cfg = OmegaConf.merge(base, tweak, cli)", "python train.py backbone_optim.weight_decay=0.1"),
    # tricky-correct: no tweak between the base and the command line
    _app("cfg = OmegaConf.merge(base, cli)"),
]
