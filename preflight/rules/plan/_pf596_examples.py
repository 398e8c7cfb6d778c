"""PF596 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = textwrap.dedent("""
    # --- config.yaml
    base_dir: /checkpoint/runs
    model:
      name: lstm
    checkpoint_dirnames:
      - ${base_dir}/${model.name}/
      - .
""")


def _app(loop: str, pins: str, pin: str = "") -> str:
    body = textwrap.dedent("""
        # --- train.py
        import os

        import hydra
        from omegaconf import OmegaConf


        @hydra.main(config_path="config.yaml")
        def main(cfg):
            {loop}{pin}
                os.makedirs(d, exist_ok=True)


        if __name__ == "__main__":
            main()
        # --- requirements.txt
    """).replace("{loop}", loop).replace("{pin}", pin)
    return body + pins + "\n" + _CONFIG


BAD_EXAMPLES = [
    # hydra issue 267: omegaconf 1.4 iterates the raw "${base_dir}/${model.name}/"
    _app("for d in cfg.checkpoint_dirnames:", "hydra-core==0.9.0\nomegaconf==1.4.0", "  # warning: PF596"),
    # hydra-core 0.9 alone pins omegaconf 1.x; a comprehension iterates the same way
    _app("for d in [p for p in cfg.checkpoint_dirnames]:", "hydra-core==0.9.0", "  # warning: PF596"),
]

GOOD_EXAMPLES = [
    # the fix of the issue: resolve the list before iterating it
    _app("for d in OmegaConf.to_container(cfg.checkpoint_dirnames, resolve=True):",
         "hydra-core==0.9.0\nomegaconf==1.4.0"),
    # tricky-correct: omegaconf 2.0 resolves on iteration
    _app("for d in cfg.checkpoint_dirnames:", "hydra-core==1.0.0\nomegaconf==2.0.0"),
    # tricky-correct: no version is pinned (current omegaconf)
    _app("for d in cfg.checkpoint_dirnames:", "torch"),
    # tricky-correct: indexing resolves on every omegaconf
    _app("for d in [cfg.checkpoint_dirnames[0]]:", "hydra-core==0.9.0\nomegaconf==1.4.0"),
]
