"""PF577 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONF = """
# --- conf/config.yaml
augment:
  mean: [0.485, 0.456, 0.406]
  std: [0.229, 0.224, 0.225]
  crop_size: 512
optim:
  lr: 0.01
"""

_SCRIPT = textwrap.dedent("""
    # --- train.py
    from typing import List, Optional

    import hydra
    from omegaconf import DictConfig, OmegaConf
    from pydantic import BaseModel


    class Augment(BaseModel):
        mean: List[float]
        std: Optional[List[float]] = None
        crop_size: int


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        aug = Augment({arg}){pin}
        print(aug.mean, cfg.optim.lr)


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # hydra issue 1184: pydantic 1.x rejects the ListConfig values ("value is not a valid list")
    _SCRIPT.format(arg="**cfg.augment", pin="  # error: PF577") + _CONF + """\
# --- requirements.txt
hydra-core==1.0.4
pydantic==1.7.3
""",
    # dict() converts the top level only: the lists are still ListConfig
    _SCRIPT.format(arg="**dict(cfg.augment)", pin="  # error: PF577") + _CONF + """\
# --- requirements.txt
pydantic==1.10.13
""",
]

GOOD_EXAMPLES = [
    # the fix: plain containers
    _SCRIPT.format(arg="**OmegaConf.to_container(cfg.augment, resolve=True)", pin="") + _CONF + """\
# --- requirements.txt
hydra-core==1.0.4
pydantic==1.7.3
""",
    # tricky-correct: pydantic 2 validates a ListConfig as a list
    _SCRIPT.format(arg="**cfg.augment", pin="") + _CONF + """\
# --- requirements.txt
pydantic==2.7.1
""",
    # tricky-correct: the node fills no list field (only scalars)
    _SCRIPT.format(arg="**cfg.optim", pin="").replace("mean: List[float]\n    std: Optional[List[float]] = None\n"
                                                       "    crop_size: int", "lr: float") + _CONF + """\
# --- requirements.txt
pydantic==1.10.13
""",
]
