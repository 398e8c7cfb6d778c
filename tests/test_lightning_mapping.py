"""Lightning ``Trainer(**mapping)``: the mapping followed to where the script builds it
(:mod:`preflight.adapters.lightning_mapping`), and left unknown where it cannot be.

Real shapes: TencentARC/InstantMesh ``train.py:169-176,185,258-262`` (08822c5: an OmegaConf
section reached through aliases, written before the call, plus a ``dict()`` filled key by key),
jasonkyuyim/multiflow ``multiflow/experiments/train_se3_flows.py:25,102-109`` (6278899: a composed
Hydra node kept as ``self._exp_cfg``), jwohlwend/boltz ``scripts/train/train.py:105-120,211-219``
(832486d: ``if trainer is None: trainer = {}`` and a key written only in debug mode)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

INSTANT = textwrap.dedent("""\
    import argparse
    from omegaconf import OmegaConf
    from pytorch_lightning import Trainer
    from pytorch_lightning.strategies import DDPStrategy

    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=str)
    parser.add_argument("--gpus", type=str, default="0,")
    parser.add_argument("--num_nodes", type=int, default=1)

    if __name__ == "__main__":
        opt, unknown = parser.parse_known_args()
        config = OmegaConf.load(opt.base)
        lightning_config = config.lightning
        trainer_config = lightning_config.trainer

        trainer_config["accelerator"] = "gpu"
        ngpu = len(opt.gpus.strip(",").split(','))
        trainer_config['devices'] = ngpu
        trainer_opt = argparse.Namespace(**trainer_config)
        lightning_config.trainer = trainer_config

        trainer_kwargs = dict()
        trainer_kwargs["callbacks"] = []
        trainer_kwargs['precision'] = '32-true'
        trainer_kwargs["strategy"] = DDPStrategy(find_unused_parameters=True)

        trainer = Trainer(**trainer_config, **trainer_kwargs, num_nodes=opt.num_nodes)
""")

INSTANT_YAML = textwrap.dedent("""\
    model:
      target: src.model.MVRecon
    lightning:
      trainer:
        benchmark: true
        max_epochs: -1
        accumulate_grad_batches: 2
""")


def _audit(cli, cwd: Path, script: str, *args: str) -> dict:
    res = cli("audit", script, "--emit-plan", "json", "--", *args, cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def _fact(plan: dict, field: str):
    facts = plan["fields"].get(field)
    return facts[0] if facts else None


def value(plan: dict, field: str):
    fact = _fact(plan, field)
    return None if fact is None else fact["value"]


def _instant(tmp_path: Path, script: str = "") -> Path:
    assert script != INSTANT  # a twin's edit that did not apply
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text(INSTANT_YAML)
    (tmp_path / "train.py").write_text(script or INSTANT)
    return tmp_path


def test_instantmesh_section_through_aliases_and_writes_is_read(cli, tmp_path):
    _instant(tmp_path)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1,2,3", "--num_nodes", "1")
    accum = _fact(plan, "batch.grad_accum")
    assert accum["value"] == 2
    assert (accum["source"]["path"], accum["source"]["line"]) == ("configs/train.yaml", 7)
    assert accum["confidence"] == "medium"  # aliases and writes were followed
    precision = _fact(plan, "precision.mode")
    assert precision["value"] == "fp32"  # trainer_kwargs['precision'] = '32-true'
    assert precision["source"]["line"] == 25
    assert value(plan, "dist.devices_per_node") == 4  # len("0,1,2,3".split(","))
    assert value(plan, "dist.nodes") == 1
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "dist.sharding") == "ddp"  # DDPStrategy(...) written into trainer_kwargs
    assert any("Trainer(**...): the keys of trainer_config (lightning.trainer of configs/train.yaml)" in n
               for n in plan["notes"])


def test_a_key_written_under_a_test_is_unknown_and_the_rest_is_read(cli, tmp_path):
    script = INSTANT.replace("    trainer_kwargs['precision'] = '32-true'\n",
                             "    if opt.num_nodes > 4:\n        trainer_kwargs['precision'] = '16-mixed'\n")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    # either 16-mixed or the default: the Trainer's precision is not guessed
    assert not [f for f in plan["fields"].get("precision.mode", []) if f["adapter"] == "lightning"]
    assert value(plan, "batch.grad_accum") == 2
    assert value(plan, "dist.world_size") == 2


def test_a_mapping_updated_from_elsewhere_is_not_followed(cli, tmp_path):
    script = INSTANT.replace("    trainer_kwargs[\"callbacks\"] = []\n",
                             "    trainer_kwargs.update(extra_kwargs(opt))\n")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    assert value(plan, "precision.mode") is None
    assert value(plan, "batch.grad_accum") is None
    assert value(plan, "dist.nodes") == 1  # the written num_nodes= is still read
    assert any("arguments passed as a mapping are not followed" in n for n in plan["notes"])


def test_a_mapping_handed_to_a_project_function_is_not_followed(cli, tmp_path):
    script = INSTANT.replace("    trainer_kwargs[\"callbacks\"] = []\n",
                             "    add_callbacks(trainer_kwargs)\n")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    assert value(plan, "precision.mode") is None
    assert value(plan, "dist.sharding") is None


def test_a_mapping_returned_by_a_function_is_not_followed(cli, tmp_path):
    script = INSTANT.replace("    trainer_kwargs = dict()\n", "    trainer_kwargs = build_kwargs(opt)\n")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    assert value(plan, "precision.mode") is None
    assert value(plan, "batch.grad_accum") is None


def test_a_key_written_with_a_computed_key_is_not_followed(cli, tmp_path):
    script = INSTANT.replace("    trainer_kwargs[\"callbacks\"] = []\n",
                             "    for k, v in vars(opt).items():\n        trainer_kwargs[k] = v\n")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    assert value(plan, "precision.mode") is None


DICT_RUN = textwrap.dedent("""\
    import lightning as L

    def main():
        trainer_kwargs = {"devices": 2, "precision": "bf16-mixed", "strategy": "fsdp"}
        trainer = L.Trainer(max_epochs=3, **trainer_kwargs)
        trainer.fit(None)

    main()
""")


def test_a_dict_literal_built_in_place_is_read_with_defaults(cli, tmp_path):
    (tmp_path / "train.py").write_text(DICT_RUN)
    plan = _audit(cli, tmp_path, "train.py")
    precision = _fact(plan, "precision.mode")
    assert precision["value"] == "amp_bf16" and precision["source"]["line"] == 4
    assert precision["confidence"] == "high"  # built in place and not written after
    assert value(plan, "dist.sharding") == "fsdp_full"
    assert value(plan, "dist.world_size") == 2
    assert value(plan, "batch.grad_accum") == 1  # Lightning's default: the dict is known whole


def test_a_dict_rebound_in_a_branch_is_not_followed(cli, tmp_path):
    script = DICT_RUN.replace("    trainer = L.Trainer", "    if cpu_only():\n        trainer_kwargs = {}\n"
                              "    trainer = L.Trainer")
    assert script != DICT_RUN
    (tmp_path / "train.py").write_text(script)
    plan = _audit(cli, tmp_path, "train.py")
    assert value(plan, "precision.mode") is None
    assert value(plan, "batch.grad_accum") is None


BOLTZ = textwrap.dedent("""\
    import sys
    import omegaconf
    import hydra
    import pytorch_lightning as pl

    def train(raw_config, args):
        raw_config = omegaconf.OmegaConf.load(raw_config)
        args = omegaconf.OmegaConf.from_dotlist(args)
        raw_config = omegaconf.OmegaConf.merge(raw_config, args)
        cfg = hydra.utils.instantiate(raw_config)
        trainer = cfg.trainer
        if trainer is None:
            trainer = {}
        devices = trainer.get("devices", 1)
        if cfg.debug:
            devices = 1
            trainer["devices"] = devices
        trainer = pl.Trainer(strategy="auto", **trainer)

    if __name__ == "__main__":
        train(sys.argv[1], sys.argv[2:])
""")

BOLTZ_YAML = "trainer:\n  accelerator: gpu\n  devices: 1\n  precision: 32\n  accumulate_grad_batches: 128\n"


def test_boltz_none_guard_is_followed_and_a_debug_write_leaves_its_key_unknown(cli, tmp_path):
    (tmp_path / "train.py").write_text(BOLTZ)
    (tmp_path / "structure.yaml").write_text(BOLTZ_YAML)
    plan = _audit(cli, tmp_path, "train.py", "structure.yaml")
    assert value(plan, "batch.grad_accum") == 128
    assert value(plan, "precision.mode") == "fp32"
    assert value(plan, "dist.nodes") == 1
    assert value(plan, "dist.devices_per_node") is None  # written under `if cfg.debug:`
    assert _fact(plan, "batch.grad_accum")["confidence"] == "medium"


MULTIFLOW = textwrap.dedent("""\
    import hydra
    from omegaconf import DictConfig
    from pytorch_lightning import Trainer

    class Experiment:
        def __init__(self, *, cfg: DictConfig):
            self._cfg = cfg
            self._exp_cfg = cfg.experiment

        def train(self):
            trainer = Trainer(
                **self._exp_cfg.trainer,
                use_distributed_sampler=False,
                devices=[0, 1, 2, 3],
            )
            trainer.fit(model=None)

    @hydra.main(version_base=None, config_path="../configs", config_name="base.yaml")
    def main(cfg: DictConfig):
        exp = Experiment(cfg=cfg)
        exp.train()

    if __name__ == "__main__":
        main()
""")

MULTIFLOW_YAML = textwrap.dedent("""\
    experiment:
      num_devices: 2
      trainer:
        max_epochs: 200
        accelerator: gpu
        strategy: ddp
        accumulate_grad_batches: ${experiment.num_devices}
""")


def test_multiflow_composed_hydra_node_kept_on_self_is_read(cli, tmp_path):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "experiments" / "train.py").write_text(MULTIFLOW)
    (tmp_path / "configs" / "base.yaml").write_text(MULTIFLOW_YAML)
    plan = _audit(cli, tmp_path, "experiments/train.py")
    assert value(plan, "dist.sharding") == "ddp"
    accum = _fact(plan, "batch.grad_accum")
    assert accum["value"] == 2 and accum["confidence"] == "medium"  # the interpolation followed
    assert value(plan, "precision.mode") == "fp32"  # no precision in the node: Lightning's default
    assert value(plan, "dist.world_size") == 4  # devices= written in the call wins


def test_a_self_attribute_set_twice_is_not_followed(cli, tmp_path):
    script = MULTIFLOW.replace("        self._exp_cfg = cfg.experiment\n",
                               "        self._exp_cfg = cfg.experiment\n"
                               "        if cfg.other:\n            self._exp_cfg = cfg.other\n")
    assert script != MULTIFLOW
    (tmp_path / "experiments").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "experiments" / "train.py").write_text(script)
    (tmp_path / "configs" / "base.yaml").write_text(MULTIFLOW_YAML)
    plan = _audit(cli, tmp_path, "experiments/train.py")
    assert value(plan, "dist.sharding") is None
    assert value(plan, "batch.grad_accum") is None
    assert any("arguments passed as a mapping are not followed" in n for n in plan["notes"])


def test_len_of_a_bare_string_option_is_not_a_device_count(cli, tmp_path):
    script = INSTANT.replace("len(opt.gpus.strip(\",\").split(','))", "len(opt.gpus)")
    _instant(tmp_path, script)
    plan = _audit(cli, tmp_path, "train.py", "--base", "configs/train.yaml", "--gpus", "0,1")
    assert value(plan, "dist.devices_per_node") is None
    assert value(plan, "batch.grad_accum") == 2


def test_a_key_of_the_self_attribute_written_in_another_method_is_not_followed(cli, tmp_path):
    script = MULTIFLOW.replace("    def train(self):\n",
                               "    def debug(self):\n        self._exp_cfg.trainer.accumulate_grad_batches = 1\n\n"
                               "    def train(self):\n")
    assert script != MULTIFLOW
    (tmp_path / "experiments").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "experiments" / "train.py").write_text(script)
    (tmp_path / "configs" / "base.yaml").write_text(MULTIFLOW_YAML)
    plan = _audit(cli, tmp_path, "experiments/train.py")
    assert value(plan, "batch.grad_accum") is None
    assert value(plan, "dist.sharding") is None


def test_an_omegaconf_created_from_a_dict_is_read(cli, tmp_path):
    """A NeMo speaker fine-tuning script: ``trainer_config = OmegaConf.create(dict(devices=1, ...))``
    then ``pl.Trainer(**trainer_config)``."""
    script = DICT_RUN.replace('{"devices": 2, "precision": "bf16-mixed", "strategy": "fsdp"}',
                              'OmegaConf.create(dict(devices=2, precision="bf16-mixed", strategy="fsdp"))')
    assert script != DICT_RUN
    (tmp_path / "train.py").write_text("from omegaconf import OmegaConf\n" + script)
    plan = _audit(cli, tmp_path, "train.py")
    assert value(plan, "precision.mode") == "amp_bf16"
    assert value(plan, "dist.world_size") == 2
