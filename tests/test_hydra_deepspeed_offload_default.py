"""A Lightning ``DeepSpeedStrategy`` built from a Hydra ``_target_`` node that names no offload
arguments: Lightning's defaults ``offload_optimizer=False`` and ``offload_parameters=False`` hold, so
nothing is offloaded. Real shapes: facebookresearch/fast3r @ 33104d4 configs/experiment/...yaml
``trainer.strategy: {_target_: lightning.pytorch.strategies.DeepSpeedStrategy, timeout: ...}``; the
same class with only a stage in Python in other public code (``pl.strategies.DeepSpeedStrategy(stage=2)``
in a cellavi trainer, ``DeepSpeedStrategy(stage=2, loss_scale=..., logging_batch_size_per_gpu=...)``
in a protein-LM trainer), which adapters/lightning_strategy.py already reads the same way. A fixture
of our own with silent twins: a ``config=`` (that replaces the arguments) and an FSDP strategy."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

TRAIN = """\
    import hydra
    import lightning as L


    @hydra.main(version_base="1.3", config_path="configs", config_name="train")
    def main(cfg):
        model = L.LightningModule()
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model)


    if __name__ == "__main__":
        main()
"""

CONFIG = """\
    trainer:
      _target_: lightning.pytorch.trainer.Trainer
      devices: 4
      num_nodes: 1
      strategy:
        _target_: lightning.pytorch.strategies.DeepSpeedStrategy
        timeout:
          _target_: datetime.timedelta
          minutes: 80
"""


def _value(plan: dict, field: str):
    fact = TrainingPlan.from_dict(plan).resolve(field)
    return None if fact is None else fact.value


def _plan(cli, tmp_path, config: str) -> dict:
    write(tmp_path, {"train.py": TRAIN, "configs/train.yaml": config})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_no_offload_arguments_means_no_offload(cli, tmp_path):
    plan = _plan(cli, tmp_path, CONFIG)
    assert _value(plan, "dist.sharding") == "zero2"
    assert _value(plan, "dist.offload_optimizer") == "none"
    assert _value(plan, "dist.offload_params") == "none"


def test_offload_flags_given(cli, tmp_path):
    text = CONFIG + "        offload_optimizer: true\n        offload_parameters: false\n        stage: 3\n"
    plan = _plan(cli, tmp_path, text)
    assert _value(plan, "dist.sharding") == "zero3"
    assert _value(plan, "dist.offload_optimizer") == "cpu"
    assert _value(plan, "dist.offload_params") == "none"


def test_twin_a_config_replaces_the_arguments(cli, tmp_path):
    """Silent twin: ``config=`` hands DeepSpeed its own JSON, whose offload sections win; no default."""
    plan = _plan(cli, tmp_path, CONFIG + "        config: ds_config.json\n")
    assert _value(plan, "dist.offload_optimizer") is None
    assert _value(plan, "dist.offload_params") is None


def test_twin_an_fsdp_strategy_says_nothing_of_offload(cli, tmp_path):
    text = CONFIG.replace("DeepSpeedStrategy", "FSDPStrategy")
    plan = _plan(cli, tmp_path, text)
    assert _value(plan, "dist.sharding") == "fsdp_full"
    assert _value(plan, "dist.offload_optimizer") is None
    assert _value(plan, "dist.offload_params") is None


INTERPOLATED = """\
    strategy:
      _target_: lightning.pytorch.strategies.DeepSpeedStrategy
      stage: 3
    trainer:
      _target_: lightning.Trainer
      devices: 2
      strategy: ${strategy}
"""


def test_a_strategy_named_by_interpolation_is_the_node_it_names(cli, tmp_path):
    """donglinkang2021/MinVQVAE @ a22527f (jobs set 49): configs/trainer/train.yaml:4 ``strategy:
    ${strategy}``, the ``strategy`` group's node ``_target_: lightning.pytorch.strategies.DeepSpeedStrategy``."""
    plan = _plan(cli, tmp_path, INTERPOLATED)
    assert _value(plan, "dist.sharding") == "zero3"
    plan = _plan(cli, tmp_path, INTERPOLATED.replace("strategy: ${strategy}", "strategy: ${nowhere}"))
    assert _value(plan, "dist.sharding") is None
    plan = _plan(cli, tmp_path, INTERPOLATED.replace("""    strategy:
      _target_: lightning.pytorch.strategies.DeepSpeedStrategy
      stage: 3
""", "    strategy: ddp\n"))
    assert _value(plan, "dist.sharding") == "ddp"
