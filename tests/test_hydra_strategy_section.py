"""A Lightning strategy composed as its own Hydra config group and handed to the Trainer as
``strategy=hydra.utils.instantiate(config.strategy)`` (kuleshov-group/mdlm @ c112c526d193 main.py:176-181,
configs/config.yaml ``defaults: - /strategy: ddp``, configs/strategy/ddp.yaml ``_target_:
lightning.pytorch.strategies.DDPStrategy``). A fixture of our own copying that shape, with silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

MDLM_LIKE = {
    "main.py": """\
        import hydra
        import lightning as L


        def _train(config):
          model = L.LightningModule()
          trainer = hydra.utils.instantiate(
            config.trainer,
            default_root_dir=".",
            strategy=hydra.utils.instantiate(config.strategy))
          trainer.fit(model)


        @hydra.main(version_base=None, config_path='configs', config_name='config')
        def main(config):
          _train(config)


        if __name__ == '__main__':
          main()
    """,
    "configs/config.yaml": """\
        defaults:
          - _self_
          - /strategy: ddp

        trainer:
          _target_: lightning.Trainer
          accelerator: cuda
          num_nodes: 1
          devices: 4
    """,
    "configs/strategy/ddp.yaml": """\
        _target_: lightning.pytorch.strategies.DDPStrategy
        find_unused_parameters: false
    """,
    "configs/strategy/fsdp.yaml": """\
        _target_: lightning.pytorch.strategies.FSDPStrategy
        sharding_strategy: SHARD_GRAD_OP
    """,
}


def _sharding(plan: dict):
    fact = TrainingPlan.from_dict(plan).resolve("dist.sharding")
    return None if fact is None else fact.value


def test_a_strategy_group_handed_to_the_trainer(cli, tmp_path):
    write(tmp_path, MDLM_LIKE)
    assert _sharding(plan_of(cli, "main.py", cwd=tmp_path)) == "ddp"
    assert _sharding(plan_of(cli, "main.py", "--", "strategy=fsdp", cwd=tmp_path)) == "fsdp_grad_op"


def test_a_strategy_group_nobody_hands_in_says_nothing(cli, tmp_path):
    """Silent twin: the same config group, but the Trainer is built without it: the group is not read
    (``strategy=fsdp`` changes nothing); the Trainer's own ``strategy="auto"`` over 4 CUDA devices is
    Lightning's DDP default (adapters/hydra_trainer_defaults.py), from the trainer section, never the group."""
    files = dict(MDLM_LIKE)
    files["main.py"] = files["main.py"].replace(",\n            strategy=hydra.utils.instantiate(config.strategy))", ")")
    write(tmp_path, files)
    for over in ((), ("--", "strategy=fsdp")):
        fact = TrainingPlan.from_dict(plan_of(cli, "main.py", *over, cwd=tmp_path)).resolve("dist.sharding")
        assert fact is not None and fact.value == "ddp" and fact.source.kind == "default"
        assert fact.source.path == "configs/config.yaml" and "strategy" not in (fact.source.path or "")
