"""PF549 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(config_path="config", config_name="config", version_base="1.1"){pin}
    def main(cfg: DictConfig):
        print(cfg.exp.seed)


    if __name__ == "__main__":
        main()
    # --- config/config.yaml
    exp:
      seed: 100
    # --- config/domain_conf/0.yaml
    gamma: 0
    # --- config/domain_conf/1.yaml
    gamma: 1
    # --- config/domain_conf/2.yaml
    gamma: 2
""")

BAD_EXAMPLES = [
    # CausalTransformer issue 3: options named 0, 1 and 2 swept unquoted
    _APP.format(pin="  # error: PF549") + """\
# --- launch
python train.py -m +domain_conf=0,1,2 exp.seed=10,101,1010
""",
]

GOOD_EXAMPLES = [
    # the fix: the option quoted (one run)
    _APP.format(pin="") + """\
# --- launch
python train.py "+domain_conf='1'" exp.seed=10
""",
    # tricky-correct: numeric sweeps of plain values (not groups)
    _APP.format(pin="") + """\
# --- launch
python train.py -m exp.seed=10,101,1010
""",
]
