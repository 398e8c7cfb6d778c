"""Hydra adapter: @hydra.main found statically, configs composed (hydra-core and preflight's
own composer), plan facts with the file and line each value came from, overrides."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any, Sequence

import pytest

from preflight.audit import build_plan
from preflight.plan import Fact, TrainingPlan

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hydra"
LHT = FIXTURES / "lht"
BROKEN = FIXTURES / "broken"


def plan_of(root: Path, argv: Sequence[str] = (), script: str = "train.py") -> TrainingPlan:
    plan, project = build_plan([root / script], [], root=root, argv=argv, strict=True)
    assert project.errors == []
    return plan


def one(plan: TrainingPlan, field: str) -> Fact:
    facts = [f for f in plan.facts(field) if f.adapter == "hydra"]
    assert len(facts) == 1, facts
    return facts[0]


def where(fact: Fact) -> tuple[Any, Any, Any]:
    return fact.source.path, fact.source.line, fact.source.key


@pytest.fixture
def no_hydra(monkeypatch):
    """hydra-core made unimportable: the adapter must fall back to preflight's composer."""
    for name in [m for m in sys.modules if m == "hydra" or m.startswith("hydra.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "hydra", None)


def test_defaults_compose_with_sources():
    plan = plan_of(LHT)
    devices = one(plan, "dist.devices_per_node")
    assert devices.value == 1
    assert where(devices) == ("configs/trainer/default.yaml", 7, "trainer.devices")
    assert one(plan, "dist.world_size").value == 1
    assert one(plan, "optimizer.name").value == "Adam"
    assert where(one(plan, "optimizer.name")) == ("configs/model/mnist.yaml", 4, "model.optimizer._target_")
    micro = one(plan, "batch.micro")
    assert (micro.value, micro.confidence) == (128, "medium")
    assert where(micro) == ("configs/data/mnist.yaml", 3, "data.batch_size")
    assert one(plan, "data.pin_memory").value is False
    assert "hydra" in plan.value("framework.names")
    assert any("composed by hydra-core" in n for n in plan.notes)
    # Lightning's default is not a Hydra fact; with no precision anywhere the derived pass says fp32
    assert all(f.adapter == "derive" and f.value == "fp32" for f in plan.facts("precision.mode"))


def test_group_override_from_the_launch_command():
    plan = plan_of(LHT, ["trainer=ddp"])
    assert where(one(plan, "dist.devices_per_node")) == ("configs/trainer/ddp.yaml", 6, "trainer.devices")
    assert one(plan, "dist.devices_per_node").value == 4
    assert one(plan, "dist.nodes").value == 2
    world = one(plan, "dist.world_size")
    assert (world.value, world.source.kind) == (8, "derived")
    assert one(plan, "precision.mode").value == "amp_fp16"
    assert where(one(plan, "precision.mode")) == ("configs/trainer/ddp.yaml", 8, "trainer.precision")
    assert one(plan, "batch.grad_accum").value == 2
    assert one(plan, "dist.sharding").value == "ddp"


def test_value_overrides_add_and_delete():
    plan = plan_of(LHT, ["trainer=gpu", "trainer.devices=8", "+trainer.num_nodes=2", "~trainer.deterministic"])
    devices = one(plan, "dist.devices_per_node")
    assert devices.value == 8
    assert (devices.source.kind, devices.source.key) == ("cli", "trainer.devices=8")
    assert one(plan, "dist.nodes").source.key == "+trainer.num_nodes=2"
    assert one(plan, "dist.world_size").value == 16
    # trainer/gpu.yaml inherits trainer/default.yaml and sets the precision
    assert where(one(plan, "precision.mode")) == ("configs/trainer/gpu.yaml", 6, "trainer.precision")


def test_experiment_overrides_groups_and_package_global():
    plan = plan_of(LHT, ["experiment=example"])
    assert one(plan, "model.ref").value == "meta-llama/Llama-3.2-1B"
    assert one(plan, "optimizer.name").value == "AdamW"  # override /model: llama
    micro = one(plan, "batch.micro")
    assert (micro.value, where(micro)) == (64, ("configs/experiment/example.yaml", 18, "data.batch_size"))
    devices = one(plan, "dist.devices_per_node")  # ${oc.select:n_gpus,2}
    assert devices.value == 2
    assert "${oc.select:n_gpus,2}" in (devices.source.detail or "")
    assert one(plan, "precision.mode").value == "amp_bf16"  # override /trainer: gpu


@pytest.mark.parametrize("argv", [[], ["trainer=ddp"], ["experiment=example"],
                                  ["trainer=gpu", "trainer.devices=8", "+trainer.max_steps=5"]])
def test_own_composer_gives_the_same_plan(argv, no_hydra):
    with_own = plan_of(LHT, argv)
    assert any("hydra-core is not installed" in n for n in with_own.notes)
    sys.modules.pop("hydra")  # hydra importable again
    with_hydra = plan_of(LHT, argv)
    assert any("composed by hydra-core" in n for n in with_hydra.notes)

    def facts(plan: TrainingPlan) -> dict[str, list[tuple[Any, ...]]]:
        return {field: [(f.value, f.source.kind, f.source.path, f.source.line, f.source.key)
                        for f in plan.facts(field) if f.adapter == "hydra"] for field in plan.fields()}

    assert facts(with_own) == facts(with_hydra)


def test_missing_values_and_never_running_targets(tmp_path, cli):
    canary = BROKEN / "PREFLIGHT_CANARY"
    assert not canary.exists()
    result = cli("audit", "train.py", "--no-cache", "--emit-plan", "json", cwd=BROKEN)
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    assert "dist.devices_per_node" not in plan["fields"]  # devices: ???
    assert any("conf/trainer/gpu.yaml:3: trainer.devices is ???" in n for n in plan["notes"])
    assert any("conf/config.yaml:7: run_name is ???" in n for n in plan["notes"])
    assert plan["fields"]["optimizer.name"][0]["value"] == "SGD"
    assert not canary.exists() and not (tmp_path / "PREFLIGHT_CANARY").exists()


def test_missing_value_given_on_the_command_line(cli):
    result = cli("audit", "train.py", "--no-cache", "--emit-plan", "json", "--", "trainer.devices=2",
                 cwd=BROKEN)
    plan = json.loads(result.out)
    fact = plan["fields"]["dist.devices_per_node"][0]
    assert (fact["value"], fact["source"]["kind"]) == (2, "cli")


def test_validation_of_hydra_trainer_node_inside_audit(cli):
    result = cli("audit", "train.py", "--no-cache", "--format", "json", "--", "trainer.devices=2", cwd=BROKEN)
    assert result.code == 1
    findings = json.loads(result.out)["findings"]
    typo = [f for f in findings if f["code"] == "PF601"]
    assert [(f["path"], f["line"]) for f in typo] == [("conf/trainer/gpu.yaml", 4)]
    assert "did you mean 'precision'" in typo[0]["message"]
    # 1e-1 is a float to OmegaConf: no YAML 1.1 finding for a Hydra file
    assert not [f for f in findings if f["code"] == "PF603"]


def test_env_interpolation_is_unknown_even_when_set(tmp_path, monkeypatch):
    monkeypatch.setenv("NGPUS", "4")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(textwrap.dedent("""\
        trainer:
          _target_: lightning.Trainer
          devices: ${oc.env:NGPUS}
          num_nodes: 2
    """), encoding="utf-8")
    (tmp_path / "run.py").write_text(textwrap.dedent("""\
        import hydra

        @hydra.main(config_path="conf", config_name="config", version_base=None)
        def main(cfg):
            pass
    """), encoding="utf-8")
    plan = plan_of(tmp_path, script="run.py")
    assert "dist.devices_per_node" not in plan and "dist.world_size" not in plan
    assert one(plan, "dist.nodes").value == 2
    assert any("trainer.devices not known statically" in n and "environment variable" in n for n in plan.notes)


def test_compose_api_and_package_directives(tmp_path, no_hydra):
    conf = tmp_path / "conf"
    (conf / "args").mkdir(parents=True)
    (conf / "config.yaml").write_text(textwrap.dedent("""\
        defaults:
          - args@training: small
          - _self_
    """), encoding="utf-8")
    (conf / "args" / "small.yaml").write_text(textwrap.dedent("""\
        _target_: transformers.TrainingArguments
        output_dir: out
        per_device_train_batch_size: 2
        gradient_accumulation_steps: 8
        bf16: true
    """), encoding="utf-8")
    (conf / "args" / "big.yaml").write_text(textwrap.dedent("""\
        defaults:
          - small
        per_device_train_batch_size: 16
    """), encoding="utf-8")
    (tmp_path / "job.py").write_text(textwrap.dedent("""\
        from hydra import compose, initialize

        with initialize(config_path="conf", version_base=None):
            cfg = compose(config_name="config", overrides=["training.gradient_accumulation_steps=4"])
    """), encoding="utf-8")
    plan = plan_of(tmp_path, script="job.py")
    assert where(one(plan, "batch.micro")) == ("conf/args/small.yaml", 3, "training.per_device_train_batch_size")
    accum = one(plan, "batch.grad_accum")
    assert (accum.value, accum.source.kind) == (4, "cli")
    assert one(plan, "precision.mode").value == "amp_bf16"
    sys.modules.pop("hydra")  # hydra-core importable again
    real = plan_of(tmp_path, ["args@training=big"], script="job.py")
    sys.modules["hydra"] = None  # type: ignore[assignment]
    own = plan_of(tmp_path, ["args@training=big"], script="job.py")
    assert own.value("batch.micro") == real.value("batch.micro") == 16
    assert where(one(own, "batch.micro")) == where(one(real, "batch.micro")) == (
        "conf/args/big.yaml", 3, "training.per_device_train_batch_size")


def test_override_of_a_missing_key_is_a_finding(cli):
    # an override of a key the config lacks is the job's bug (Hydra stops before the app runs):
    # PF526 reports it once, as a finding at the app, not as an input preflight could not read
    result = cli("audit", "train.py", "--no-cache", "--", "trainer.num_nodes=2", cwd=LHT)
    assert result.code == 1
    out = result.out + result.err
    assert "train.py:6" in out and "PF526" in out
    assert "`+trainer.num_nodes=2`" in out and "not composed" not in out


def test_config_directory_without_a_script(cli):
    result = cli("audit", "--config", "configs", "--no-cache", "--emit-plan", "json", "--", "trainer=ddp", cwd=LHT)
    assert result.code == 0, result.err
    fields = json.loads(result.out)["fields"]
    world = fields["dist.world_size"][0]
    assert (world["value"], world["source"]["path"], world["source"]["line"]) == (8, "configs/trainer/ddp.yaml", 6)


def test_config_directory_without_a_primary_config(cli, tmp_path):
    (tmp_path / "conf" / "trainer").mkdir(parents=True)
    (tmp_path / "conf" / "trainer" / "a.yaml").write_text("devices: 2\n", encoding="utf-8")
    result = cli("audit", "--config", "conf", "--no-cache", "--emit-plan", "json", cwd=tmp_path)
    assert result.code == 3
    assert "conf: error: a Hydra config directory needs a primary config" in result.err


def test_user_hydra_plugins_are_never_imported(tmp_path, monkeypatch):
    plugin = tmp_path / "hydra_plugins" / "evil"
    plugin.mkdir(parents=True)
    canary = tmp_path / "PLUGIN_CANARY"
    (plugin / "__init__.py").write_text(f"open({str(canary)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    plan = plan_of(LHT)
    assert not canary.exists()
    assert any("hydra_plugins would be imported" in n for n in plan.notes)
    assert one(plan, "dist.devices_per_node").value == 1


def test_searchpath_packages_are_never_imported(tmp_path, monkeypatch):
    package = tmp_path / "evilconf"
    package.mkdir()
    canary = tmp_path / "SEARCHPATH_CANARY"
    (package / "__init__.py").write_text(f"open({str(canary)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(textwrap.dedent("""\
        hydra:
          searchpath:
            - pkg://evilconf
        trainer:
          _target_: lightning.Trainer
          devices: 2
    """), encoding="utf-8")
    (tmp_path / "run.py").write_text(textwrap.dedent("""\
        import hydra

        @hydra.main(config_path="conf", config_name="config", version_base=None)
        def main(cfg):
            pass
    """), encoding="utf-8")
    plan = plan_of(tmp_path, script="run.py")
    assert not canary.exists()
    assert any("pkg://evilconf" in n for n in plan.notes)
    assert one(plan, "dist.devices_per_node").value == 2


def test_missing_plugin_for_hydra_settings_falls_back(tmp_path):
    # lightning-hydra-template's configs/hydra/default.yaml needs the hydra-colorlog plugin
    (tmp_path / "conf" / "hydra").mkdir(parents=True)
    (tmp_path / "conf" / "config.yaml").write_text(textwrap.dedent("""\
        defaults:
          - hydra: default
          - _self_
        trainer:
          _target_: lightning.pytorch.trainer.Trainer
          devices: 2
    """), encoding="utf-8")
    (tmp_path / "conf" / "hydra" / "default.yaml").write_text(textwrap.dedent("""\
        defaults:
          - override hydra_logging: colorlog
          - override job_logging: colorlog
    """), encoding="utf-8")
    (tmp_path / "run.py").write_text(textwrap.dedent("""\
        import hydra

        @hydra.main(config_path="conf", config_name="config", version_base="1.3")
        def main(cfg):
            pass
    """), encoding="utf-8")
    plan = plan_of(tmp_path, script="run.py")
    assert where(one(plan, "dist.devices_per_node")) == ("conf/config.yaml", 6, "trainer.devices")
    assert any("could not compose Hydra's own settings" in n and "colorlog" in n for n in plan.notes)


def _hydra_job(tmp_path: Path, config: str) -> TrainingPlan:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(textwrap.dedent(config), encoding="utf-8")
    (tmp_path / "run.py").write_text(textwrap.dedent("""\
        import hydra

        @hydra.main(config_path="conf", config_name="config", version_base=None)
        def main(cfg):
            pass
    """), encoding="utf-8")
    return plan_of(tmp_path, script="run.py")


_TWO_OPTIMIZERS = """\
    device:
      id: 0
    task:
      optimizer:
        _target_: torch.optim.SGD
        lr: 0.1
    system:
      train:
        optimizer:
          _target_: torch.optim.AdamW
          lr: 0.001
        trainer:
          _target_: pytorch_lightning.Trainer
          devices:
            - ${device.id}
"""


def test_disagreeing_optimizers_take_the_one_beside_the_trainer(tmp_path):
    # NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion: task.optimizer SGD (the data stage),
    # system.train.optimizer AdamW beside system.train.trainer (the job)
    plan = _hydra_job(tmp_path, _TWO_OPTIMIZERS)
    fact = one(plan, "optimizer.name")
    assert fact.value == "AdamW" and fact.confidence == "medium"
    assert fact.source.key == "system.train.optimizer._target_"
    # a device list of one interpolated index is one device
    assert one(plan, "dist.devices_per_node").value == 1
    assert one(plan, "dist.world_size").value == 1


def test_disagreeing_optimizers_with_no_trainer_beside_are_left_unknown(tmp_path):
    plan = _hydra_job(tmp_path, """\
        stage1:
          optimizer:
            _target_: torch.optim.SGD
        stage2:
          optimizer:
            _target_: torch.optim.Adam
        trainer:
          _target_: pytorch_lightning.Trainer
          devices: 2
    """)
    assert [f for f in plan.facts("optimizer.name") if f.adapter == "hydra"] == []
    assert any("optimizer nodes disagree" in n for n in plan.notes)


def test_agreeing_optimizers_are_taken_and_unknown_device_lists_are_not_counted(tmp_path):
    plan = _hydra_job(tmp_path, """\
        a:
          optimizer:
            _target_: torch.optim.AdamW
        b:
          optimizer:
            _target_: torch.optim.AdamW
        trainer:
          _target_: pytorch_lightning.Trainer
          devices:
            - ${oc.env:GPU_LIST}
            - cuda
    """)
    fact = one(plan, "optimizer.name")
    assert fact.value == "AdamW" and fact.confidence == "high"
    assert "dist.devices_per_node" not in plan
