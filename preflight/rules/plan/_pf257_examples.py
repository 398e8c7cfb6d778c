"""PF257 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")  # {pin}
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        opt = torch.optim.SGD(model.parameters(), lr=cfg.optimizer.lr)
        print(cfg.model.name, cfg.trainer.max_epochs, opt)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: resnet18
      - _self_
    optimizer:
      lr: 0.1
    trainer:
      max_epochs: 200
      devices: [0]
    # --- conf/model/resnet18.yaml
    name: resnet18
    # --- conf/model/resnet50.yaml
    name: resnet50
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # hydra issue 856: a comma-separated learning-rate sweep without --multirun ("Ambiguous value")
    _APP.format(pin="error: PF257", args="optimizer.lr=1e-3,3e-4,1e-4 model=resnet18 trainer.max_epochs=100"),
    # a sweep over a config group, and a sweep function, without --multirun
    _APP.format(pin="error: PF257", args="model=resnet18,resnet50"),
    _APP.format(pin="error: PF257", args="'optimizer.lr=choice(0.1,0.01)'"),
]

GOOD_EXAMPLES = [
    # the fix: the same sweep under --multirun
    _APP.format(pin="", args="--multirun optimizer.lr=1e-3,3e-4,1e-4 model=resnet18 trainer.max_epochs=100"),
    _APP.format(pin="", args="-m model=resnet18,resnet50"),
    # tricky: a list, a quoted string, an escaped comma and an interpolation default are one value each
    _APP.format(pin="", args="'trainer.devices=[0,1]' \"+run_name='lr,sweep'\" '+tag=a\\,b' "
                             "'+data_root=${oc.env:DATA,/data}'"),
    # tricky: the primary config makes every run a multirun (hydra.mode, Hydra 1.2)
    _APP.format(pin="", args="optimizer.lr=1e-3,3e-4").replace(
        "trainer:\n  max_epochs: 200", "hydra:\n  mode: MULTIRUN\ntrainer:\n  max_epochs: 200"),
    # tricky: a sweep tool's own command expands the sweep (lightning run sweep --syntax hydra)
    _APP.format(pin="", args="optimizer.lr=1e-3,3e-4").replace(
        "python train.py", "lightning run sweep --syntax hydra train.py"),
]
