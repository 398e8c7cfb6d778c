"""PF190 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from omegaconf import DictConfig
    from torch.utils.data import DataLoader
    from torchvision.datasets import ImageFolder


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        dataset = ImageFolder(cfg.dataset_root)
        loader = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True)
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        for batch in loader:
            optimizer.step()


    if __name__ == "__main__":
        main()
    """)

_REQ = """\
# --- requirements.txt
hydra-core==1.2.0
"""

_CFG = """\
# --- conf/config.yaml
defaults:
  - _self_

dataset_root: ${oc.env:DATASET_ROOT,???}  # warning: PF190
batch_size: 16
lr: 3e-4
"""

BAD = [
    # hydra issue 2469: as a value, the `???` fallback is the string "???"
    _TRAIN + _REQ + _CFG,
    # inside a longer string, quoted fallback
    _TRAIN + _REQ + _CFG.replace("${oc.env:DATASET_ROOT,???}", "\"${oc.env:DATA_HOME,'???'}/imagenet\""),
]

GOOD = [
    # no fallback: an unset variable stops the job at composition
    _TRAIN + _REQ + _CFG.replace(",???}  # warning: PF190", "}"),
    # a real default
    _TRAIN + _REQ + _CFG.replace(",???}  # warning: PF190", ",/datasets/imagenet}"),
    # tricky: the fallback form only in the line's comment
    _TRAIN + _REQ + _CFG.replace("${oc.env:DATASET_ROOT,???}  # warning: PF190",
                                 "${oc.env:DATASET_ROOT}  # not ${oc.env:DATASET_ROOT,???}: that is a string"),
]
