"""PF677 and PF678 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from omegaconf import DictConfig


    @hydra.main(config_path="configs", config_name="config")
    def main(cfg: DictConfig) -> None:
        model = torch.nn.Linear(4, 2)
        if cfg.model.pretrained is not None:
            model.load_state_dict(torch.load(cfg.model.pretrained))
        optimizer = torch.optim.Adam(model.parameters(), lr=cfg.optim.encoder.lr)
        return optimizer


    if __name__ == "__main__":
        main()
    """)

_PIN_20 = """\
# --- requirements.txt
hydra-core==1.0.7
omegaconf==2.0.6
torch==1.8.1
"""

_PIN_HYDRA_10 = """\
# --- requirements.txt
hydra-core==1.0.6
torch==1.8.1
"""

_PIN_21 = """\
# --- requirements.txt
hydra-core==1.1.1
omegaconf==2.1.1
"""

_MERGE_CFG = """\
# --- configs/config.yaml
optim:
  adam_base: &adam_base
    _target_: torch.optim.Adam
    lr: 1.0e-3
  encoder:
    <<: *adam_base  # error: PF677
    lr: 1.0e-4
model:
  pretrained: null
"""

_ENV_CFG = """\
# --- configs/config.yaml
optim:
  encoder:
    lr: 1.0e-4
model:
  pretrained: ${env:PRETRAINED_CKPT,null}  # warning: PF678
"""

BAD = [
    # omegaconf issue 323: a merge key under omegaconf==2.0.6
    _TRAIN + _PIN_20 + _MERGE_CFG,
    # hydra-core 1.0.x pins omegaconf to 2.0
    _TRAIN + _PIN_HYDRA_10 + _MERGE_CFG,
]

GOOD = [
    # omegaconf 2.1 loads merge keys
    _TRAIN + _PIN_21 + _MERGE_CFG.replace("  # error: PF677", ""),
    # tricky: a lower bound says nothing about the installed release
    _TRAIN + "# --- requirements.txt\nomegaconf>=2.0\n" + _MERGE_CFG.replace("  # error: PF677", ""),
    # interpolation instead of a merge key on 2.0
    _TRAIN + _PIN_20 + _MERGE_CFG.replace("<<: *adam_base  # error: PF677", "_target_: ${optim.adam_base._target_}")
    .replace("&adam_base", ""),
]

PF678_BAD = [
    # omegaconf issue 230: the null default is the string "null" on 2.0
    _TRAIN + _PIN_20 + _ENV_CFG,
]

PF678_GOOD = [
    # 2.1+: oc.env parses null
    _TRAIN + _PIN_21 + _ENV_CFG.replace("env:", "oc.env:").replace("  # warning: PF678", ""),
    # a string default is meant as a string
    _TRAIN + _PIN_20 + _ENV_CFG.replace(",null}  # warning: PF678", ",/ckpt/base.pt}"),
    # tricky: the null written as the key's value
    _TRAIN + _PIN_20 + _ENV_CFG.replace("${env:PRETRAINED_CKPT,null}  # warning: PF678", "null"),
]
