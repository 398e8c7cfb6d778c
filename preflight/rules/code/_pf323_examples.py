"""PF323 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CLASSES = textwrap.dedent("""
    from dataclasses import dataclass

    import hydra
    import torch


    @dataclass
    class EnergyModel:
        dim: int

        def __post_init__(self):
            self.weight = torch.nn.Parameter(torch.randn(self.dim, self.dim))


    @dataclass
    class LangevinSampler:
        model: EnergyModel
        steps: int
""")

PF323_BAD = [
    # hydra issue 2591 (held-out-27): the instantiated dataclass model handed to the sampler's instantiate
    _CLASSES + textwrap.dedent("""

    @hydra.main(version_base="1.3", config_path="conf", config_name="ebm")
    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)
        sampler = hydra.utils.instantiate(cfg.sampler, model=model)  # error: PF323
        return sampler
    """),
    # the dataclass built directly, handed through `call` under another keyword
    _CLASSES + textwrap.dedent("""
    from hydra.utils import call


    def run(cfg):
        energy = EnergyModel(dim=8)
        return call(cfg.evaluate, energy_model=energy)  # error: PF323
    """),
]

PF323_GOOD = [
    # the fix: a partial, called with the object
    _CLASSES + textwrap.dedent("""

    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)
        sampler = hydra.utils.instantiate(cfg.sampler, _partial_=True)(model=model)
        return sampler
    """),
    # tricky: a torch module (no dataclass) as a keyword, and the dataclass passed positionally
    _CLASSES + textwrap.dedent("""

    def main(cfg):
        net = torch.nn.Linear(8, 8)
        optimizer = hydra.utils.instantiate(cfg.optimizer, params=net.parameters())
        model = EnergyModel(dim=8)
        sampler = hydra.utils.instantiate(cfg.sampler, model)
        return optimizer, sampler
    """),
    # tricky: a keyword whose name matches no dataclass-typed field, holding a literal
    _CLASSES + textwrap.dedent("""

    def main(cfg):
        return hydra.utils.instantiate(cfg.sampler, steps=20)
    """),
    # tricky: structured-config schemas type the field (the object passed is a module built by instantiate)
    textwrap.dedent("""
    from dataclasses import dataclass

    import hydra


    @dataclass
    class ModelConfig:
        _target_: str = "models.Net"
        width: int = 64


    @dataclass
    class TrainerConf:
        model: ModelConfig
        epochs: int = 10


    def main(cfg):
        model = hydra.utils.instantiate(cfg.model)
        trainer = hydra.utils.instantiate(cfg.trainer, model=model)
        trainer.fit()
    """),
]
