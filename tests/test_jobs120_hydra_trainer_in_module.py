"""Branch jobs120 (set 47 reading, in-sample): Lightning's defaults for a Hydra Trainer section that a local
module the script imports instantiates (adapters/hydra_trainer_defaults.py ``_handed_in_modules``). Fixture of
our own in the shape of NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion @ 481fdca0 ``train_p_diff.py:3``
(``from core.runner.runner import *``) and ``core/runner/runner.py:66,78`` (two functions, each
``hydra.utils.instantiate(cfg.system.train.trainer)``)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import hydra
    from core.runner.runner import *


    @hydra.main(config_path="configs", config_name="base", version_base="1.2")
    def main(config):
        if config.mode == "train":
            train_generation(config)
        else:
            test_generation(config)


    if __name__ == "__main__":
        main()
    """

RUNNER = """\
    import hydra


    def train_generation(cfg):
        trainer = hydra.utils.instantiate(cfg.system.train.trainer{kw})
        return trainer


    def test_generation(cfg):
        trainer = hydra.utils.instantiate(cfg.system.train.trainer)
        return trainer
    """

CONFIG = """\
    mode: train
    system:
      train:
        trainer:
          _target_: pytorch_lightning.Trainer
          max_epochs: 10
          accelerator: gpu
          devices: [0]
    """


def _nodes(cli, tmp_path: Path, kw: str = "") -> object:
    write(tmp_path, {"train.py": SCRIPT, "core/__init__.py": "", "core/runner/__init__.py": "",
                     "core/runner/runner.py": RUNNER.format(kw=kw), "configs/base.yaml": CONFIG})
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "dist.nodes")


def test_the_trainer_instantiated_in_an_imported_module_gets_lightnings_num_nodes(cli, tmp_path: Path) -> None:
    got = _nodes(cli, tmp_path)
    assert got is not None and got.value == 1 and got.confidence == "medium" and got.source.kind == "default"


def test_calls_that_pass_different_keywords_are_not_read(cli, tmp_path: Path) -> None:
    assert _nodes(cli, tmp_path, kw=", num_nodes=2") is None
