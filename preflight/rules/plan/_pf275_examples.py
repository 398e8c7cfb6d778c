"""PF275 examples: small projects (``# --- <path>`` sections); bad ones pin their finding's line, good
ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model){pin}
        model.fit()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: unet_small
      - _self_
    hydra:
      run:
        dir: outputs/${{model.name}}
    # --- conf/model/unet_small.yaml
    _target_: seg.models.{target}
    name: unet_small
    in_channels: 3
    depth: 4
    # --- seg/__init__.py
    # --- seg/models.py
    import torch
    from dataclasses import dataclass


    class UNet(torch.nn.Module):
        def __init__(self, in_channels, depth=4{more}):
            super().__init__()


    class Flexible(torch.nn.Module):
        def __init__(self, in_channels, **kwargs):
            super().__init__()


    class Inherits(UNet):
        pass


    @dataclass
    class Config:
        in_channels: int
        name: str = ""
    """)

PF275_BAD = [
    # hydra issue 1777's shape: a bookkeeping `name` key beside the constructor arguments
    _APP.format(pin="  # error: PF275", target="UNet", more=""),
]

_NESTED = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base="1.3", config_path=".", config_name="config")
    def main(cfg):
        module = hydra.utils.instantiate(cfg.model{call}){pin}
        module.fit()
    # --- config.yaml
    model:
      _target_: lit.Module
      lr: 0.001
      net:
        _target_: lit.DenseNet
        input_size: 784
        hidden: 64
    # --- lit.py
    class DenseNet:
        def __init__(self, input_size, hidden_size=64):
            self.size = (input_size, hidden_size)


    class Module:
        def __init__(self, net, lr):
            self.net = net
    """)

PF275_BAD.append(
    # a nested node instantiate builds first: `hidden` is not DenseNet's `hidden_size`
    _NESTED.format(call="", pin="  # error: PF275"))

PF275_GOOD = [
    # tricky-correct: the call passes the nested argument itself
    _NESTED.format(call=", net=None", pin=""),
    # the constructor accepts the key
    _APP.format(pin="", target="UNet", more=", name=None"),
    # tricky-correct: **kwargs, an inherited __init__, a dataclass: signatures preflight does not guess
    _APP.format(pin="", target="Flexible", more=""),
    _APP.format(pin="", target="Inherits", more=""),
    _APP.format(pin="", target="Config", more=""),
    # the fix: the key dropped before the call (the node is a container now, not followed)
    textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import OmegaConf


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model_cfg = OmegaConf.to_container(cfg.model, resolve=True)
        model_cfg.pop("name")
        model = hydra.utils.instantiate(model_cfg)
        model.fit()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    model:
      _target_: seg.models.UNet
      name: unet_small
      in_channels: 3
    # --- seg/__init__.py
    # --- seg/models.py
    class UNet:
        def __init__(self, in_channels):
            self.in_channels = in_channels
    """),
]
