"""PF259 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- hydra_train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config", version_base="1.1")
    def main(cfg):
        layer = torch.nn.TransformerEncoderLayer(cfg.model.embed_dim, nhead=8, batch_first=True)
        model = torch.nn.TransformerEncoder(layer, num_layers=cfg.model.encoder_layers)
        print(model, cfg.optimizer.lr, cfg.max_update)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:{pin}
    {self_first}  - model: transformer_base
      - optimizer: adam
    model:
      encoder_layers: 6
      embed_dim: 512
    optimizer:
      lr: 5e-4
    max_update: 100000
    # --- conf/model/transformer_base.yaml
    encoder_layers: 6
    embed_dim: 512
    # --- conf/model/transformer_big.yaml
    encoder_layers: 12
    embed_dim: 1024
    # --- conf/optimizer/adam.yaml
    lr: 5e-4
    # --- conf/optimizer/adafactor.yaml
    lr: 1e-3
    # --- launch
    python hydra_train.py {args}
""")

# hydra issue 1755: an experiment chosen into the primary's `- experiment: null` slot (an
# `@package _global_` overlay) loses to the primary's own values, composed after it on Hydra >= 1.1
_EXPERIMENT = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        opt = torch.optim.SGD(model.parameters(), lr=cfg.optimizer.lr)
        print(opt, cfg.trainer.max_epochs, cfg.model.name)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:{pin}
    {self_first}  - model: resnet50
      - experiment: null
    trainer:
      max_epochs: 10
    optimizer:
      lr: 0.1
    # --- conf/model/resnet50.yaml
    name: resnet50
    # --- conf/experiment/long_schedule.yaml
    # @package _global_
    trainer:
      max_epochs: 300
    optimizer:
      lr: 0.4
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # fairseq PR 3722: the primary config's placeholders win over the options chosen on the command line
    _APP.format(pin="  # warning: PF259", self_first="", args="model=transformer_big optimizer=adafactor"),
    _EXPERIMENT.format(pin="  # warning: PF259", self_first="", args="experiment=long_schedule"),
]

GOOD_EXAMPLES = [
    # the fix: _self_ first, the selected options override the placeholders
    _APP.format(pin="", self_first="  - _self_\n", args="model=transformer_big optimizer=adafactor"),
    # tricky-correct: the default options, tweaked by the primary config (Hydra's documented way)
    _APP.format(pin="", self_first="", args=""),
    # tricky-correct: the launch line also sets the keys it wants
    _APP.format(pin="", self_first="", args="optimizer=adafactor optimizer.lr=1e-3"),
    # the fix of hydra issue 1755: `_self_` first, the experiment's values win
    _EXPERIMENT.format(pin="", self_first="  - _self_\n", args="experiment=long_schedule"),
    # tricky-correct: no experiment chosen, the slot stays empty
    _EXPERIMENT.format(pin="", self_first="", args=""),
]
