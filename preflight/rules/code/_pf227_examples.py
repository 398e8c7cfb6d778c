"""PF227 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF227`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF227_BAD = [
    # a Hydra structured config: the nested node's default is an instance
    textwrap.dedent("""
    from dataclasses import dataclass, field
    from typing import List

    from hydra.core.config_store import ConfigStore


    @dataclass
    class DataConfig:
        root: str = "data"
        crop_size: List[int] = field(default_factory=lambda: [512, 1024])


    @dataclass
    class OptimConfig:
        lr: float = 0.01
        momentum: float = 0.9


    @dataclass
    class TrainConfig:
        data: DataConfig = field(default_factory=DataConfig)
        optim: OptimConfig = OptimConfig()  # error: PF227
        epochs: int = 200


    ConfigStore.instance().store(name="train_config", node=TrainConfig)
"""),
    # `@dataclasses.dataclass(eq=True)` and an instance with arguments
    """
import dataclasses


@dataclasses.dataclass(eq=True)
class Schedule:
    warmup: int = 0


@dataclasses.dataclass
class Run:
    schedule: Schedule = Schedule(warmup=500)  # error: PF227
""",
]

PF227_GOOD = [
    # the fix: a default factory
    """
from dataclasses import dataclass, field


@dataclass
class OptimConfig:
    lr: float = 0.01


@dataclass
class TrainConfig:
    optim: OptimConfig = field(default_factory=OptimConfig)
    epochs: int = 200
""",
    # tricky-correct: a frozen dataclass is hashable, so Python accepts its instance as a default
    """
from dataclasses import dataclass


@dataclass(frozen=True)
class Betas:
    b1: float = 0.9
    b2: float = 0.999


@dataclass
class OptimConfig:
    betas: Betas = Betas()
""",
    # tricky-correct: eq=False keeps object.__hash__
    """
from dataclasses import dataclass


@dataclass(eq=False)
class Paths:
    root: str = "."


@dataclass
class Config:
    paths: Paths = Paths()
""",
    # tricky-correct: the outer class is a pydantic dataclass (it copies defaults itself)
    """
from dataclasses import dataclass

from pydantic.dataclasses import dataclass as pydantic_dataclass


@dataclass
class Inner:
    x: int = 1


@pydantic_dataclass
class Outer:
    inner: Inner = Inner()
""",
    # tricky-correct: another decorator wraps the inner class (it may make it hashable or replace it)
    """
from dataclasses import dataclass

from .utils import dictify


@dictify
@dataclass(kw_only=True)
class LossConfig:
    type: str = "cross_entropy"


@dataclass(kw_only=True)
class QuantumConfig:
    loss: LossConfig = LossConfig()
""",
]
