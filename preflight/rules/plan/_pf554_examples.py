"""PF554 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
        policy = torch.nn.Linear(8, 2)
        optimizer = hydra.utils.instantiate(cfg.optimizer, params=policy.parameters(){call}){pin}
        torch.save({{"optimizer_state_dict": optimizer.state_dict()}}, "checkpoint.pt")


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    optimizer:
      _target_: {target}
      lr: 1.0e-4
      betas: [0.95, 0.999]
      weight_decay: 1.0e-6
    {extra}""")

# hydra issue 1483: the optimizer node lives in a group and the LightningModule instantiates it from its hparams
_MODULE_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl

    from model import LitModel


    @hydra.main(version_base="1.1", config_path="conf", config_name="config")
    def main(cfg):
        model = LitModel(optimizer=cfg.optimizer)
        pl.Trainer(max_epochs=1).fit(model)


    if __name__ == "__main__":
        main()
    # --- model.py
    import hydra
    import pytorch_lightning as pl


    class LitModel(pl.LightningModule):
        def __init__(self, optimizer):
            super().__init__()
            self.save_hyperparameters()

        def configure_optimizers(self):
            return hydra.utils.instantiate(self.hparams.optimizer, params=self.parameters(){call}){pin}
    # --- conf/config.yaml
    defaults:
      - optimizer: adam
      - _self_
    # --- conf/optimizer/adam.yaml
    _target_: torch.optim.Adam
    lr: 0.001
    betas: [0.9, 0.999]
""")

_STRUCTURED = textwrap.dedent("""
    from dataclasses import dataclass, field
    from typing import Any, Tuple

    import hydra
    from hydra.core.config_store import ConfigStore
    from hydra.utils import instantiate


    @dataclass
    class AdamConfig:
        _target_: str = "torch.optim.Adam"
        lr: float = 0.001
        betas: Tuple[float, float] = (0.9, 0.999)


    @dataclass
    class TrainConfig:
        optimizer: Any = field(default_factory=AdamConfig)
        epochs: int = 30


    ConfigStore.instance().store(name="train_config", node=TrainConfig)


    @hydra.main(config_path=None, config_name="train_config")
    def main(cfg):
        optimizer = instantiate(cfg.optimizer, model.parameters(){call}){pin}
        return optimizer
""")

_UNET = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model{call}).to("cuda"){pin}
        model.save_pretrained("outputs/final")


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: unet
      - _self_
    # --- conf/model/unet.yaml
    _target_: diffusers.models.UNet2DModel
    sample_size: 32
    block_out_channels: [128, 256, 256, 256]
    down_block_types:
      - DownBlock2D
      - AttnDownBlock2D
""")

PF554_BAD = [
    # a diffusers model: save_pretrained cannot write the ListConfig to JSON
    _UNET.format(call="", pin="  # warning: PF554"),
]

PF554_GOOD = [
    # the fixes: _convert_ in the call, or the value passed again as a tuple
    # optimizers: current torch converts betas to a tuple itself (torch/optim/adam.py), so these are quiet
    _APP.format(call="", pin="", target="torch.optim.AdamW", extra=""),
    _MODULE_APP.format(call="", pin=""),
    _UNET.format(call=', _convert_="all"', pin=""),
    # tricky-correct: _convert_ set in the node itself
    _APP.format(call="", pin="", target="torch.optim.AdamW", extra="  _convert_: all\n").replace(
        "  weight_decay: 1.0e-6\n  _convert_: all", "  weight_decay: 1.0e-6\n  _convert_: all"),
    # tricky-correct: the optimizer's state is never saved (the ListConfig is only read)
    _APP.format(call="", pin="", target="torch.optim.AdamW", extra="").replace(
        '    torch.save({"optimizer_state_dict": optimizer.state_dict()}, "checkpoint.pt")\n',
        '    torch.save(policy.state_dict(), "model.pt")\n'),
    # tricky-correct: a target whose list handling is not known to keep the ListConfig
    _APP.format(call="", pin="", target="my_project.optim.build_adamw", extra=""),
]
