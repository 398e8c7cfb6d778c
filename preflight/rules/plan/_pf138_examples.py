"""PF138 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line, good
ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from hydra.core.config_store import ConfigStore

    from configs import AdamConfig, TrainConfig

    cs = ConfigStore.instance()
    cs.store(name="train_schema", node=TrainConfig)
    cs.store(group="optim", name="adam_schema", node=AdamConfig)


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        return optimizer


    if __name__ == "__main__":
        main()
    """)

_CONFIGS = textwrap.dedent("""
    # --- configs.py
    from dataclasses import dataclass, field
    from typing import Any, List


    @dataclass
    class AdamConfig:
        lr: float = 1.5e-4
        betas: tuple = (0.9, 0.999)  # error: PF138


    @dataclass
    class TrainConfig:
        defaults: List[Any] = field(default_factory=lambda: [{"optim": "adam"}])
        optim: Any = None
    """)

_CONF = "# --- conf/config.yaml\nlr: 1.0e-3\n"
_PIN_21 = "# --- requirements.txt\nhydra-core==1.1.0\nomegaconf==2.1.0\n"

BAD = [
    # SeanNaren/deepspeech.pytorch#683's shape
    _TRAIN + _CONF + _CONFIGS + _PIN_21,
    # hydra-core 1.1 alone pins omegaconf 2.1
    _TRAIN + _CONF + _CONFIGS + "# --- requirements.txt\nhydra-core==1.1.1\n",
]

_LIST = _CONFIGS.replace("betas: tuple = (0.9, 0.999)  # error: PF138",
                         "betas: List[float] = field(default_factory=lambda: [0.9, 0.999])")

GOOD = [
    # the fix: a list field
    _TRAIN + _CONF + _LIST + _PIN_21,
    # tricky: no OmegaConf 2.1 pin (a lower bound), and a tuple in a dataclass that is not a structured config
    _TRAIN + _CONF + _CONFIGS.replace("  # error: PF138", "") + "# --- requirements.txt\nhydra-core>=1.1\n",
    _TRAIN + _CONF + _LIST + _PIN_21 + textwrap.dedent("""
    # --- shapes.py
    from dataclasses import dataclass


    @dataclass
    class Shape:
        size: tuple = (224, 224)
    """),
]
