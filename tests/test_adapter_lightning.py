"""Lightning adapter: Trainer(...) and LightningModule code, through build_plan and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Sequence

import pytest

from preflight.audit import build_plan
from preflight.plan import Fact, TrainingPlan
from preflight.registry import all_adapters

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lightning"


def audit(scripts: Sequence[str], configs: Sequence[str] = (), argv: Sequence[str] = (),
          root: Path = FIXTURES) -> TrainingPlan:
    plan, project = build_plan([root / s for s in scripts], [root / c for c in configs], root=root,
                               argv=argv, strict=True)
    assert project.errors == []
    return plan


def mine(plan: TrainingPlan, field: str) -> list[Fact]:
    return [f for f in plan.facts(field) if f.adapter == "lightning"]


def one(plan: TrainingPlan, field: str) -> Fact:
    facts = mine(plan, field)
    assert len(facts) == 1, facts
    return facts[0]


def snippet(tmp_path: Path, code: str, argv: Sequence[str] = ()) -> TrainingPlan:
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return audit(["train.py"], argv=argv, root=tmp_path)


def test_registered():
    assert all_adapters()["lightning"].frameworks == ("lightning",)


def test_clean_job_argparse_defaults():
    plan = audit(["train_lit.py"])
    prec = one(plan, "precision.mode")
    assert (prec.value, prec.source.kind, prec.source.line, prec.source.key) == ("amp_bf16", "code", 41, "--precision")
    dev = one(plan, "dist.devices_per_node")
    assert (dev.value, dev.source.line, dev.source.key) == (4, 39, "--devices")
    assert one(plan, "dist.nodes").value == 2
    world = one(plan, "dist.world_size")
    assert (world.value, world.source.kind, world.source.line) == (8, "derived", 44)
    assert one(plan, "dist.sharding").value == "zero3"
    assert one(plan, "dist.offload_params").value == "cpu"
    assert one(plan, "dist.offload_optimizer").value == "cpu"
    accum = one(plan, "batch.grad_accum")
    assert (accum.value, accum.source.key) == (8, "--accum")
    opt = one(plan, "optimizer.name")  # the scheduler is not an optimizer
    assert (opt.value, opt.source.line) == ("AdamW", 20)
    micro = one(plan, "batch.micro")  # DataModule(batch_size=16), not the default 32 nor the val loader's 256
    assert (micro.value, micro.source.line, micro.priority) == (16, 52, 1)
    assert plan.value("batch.micro") == 16
    assert "lightning" in plan.value("framework.names")


def test_argv_overrides_reach_the_trainer():
    plan = audit(["train_lit.py"], argv=["--devices", "8", "--nodes=4", "--precision", "16-true", "--accum", "2"])
    dev = one(plan, "dist.devices_per_node")
    assert (dev.value, dev.source.kind, dev.source.key) == (8, "cli", "--devices")
    assert "overrides the argparse default 4" in (dev.source.detail or "")
    assert one(plan, "dist.nodes").value == 4
    assert one(plan, "dist.world_size").value == 32
    assert one(plan, "precision.mode").value == "fp16"
    assert one(plan, "batch.grad_accum").value == 2


def test_buggy_job():
    plan = audit(["buggy_lit.py"])
    prec = one(plan, "precision.mode")
    assert prec.value == "amp_fp16" and "'16-mixed'" in (prec.source.detail or "")
    assert one(plan, "dist.devices_per_node").value == 2  # "0,2" = two device ids
    nodes = one(plan, "dist.nodes")
    assert (nodes.value, nodes.source.kind) == (1, "default")
    assert one(plan, "dist.world_size").value == 2
    sharding = one(plan, "dist.sharding")
    assert (sharding.value, sharding.source.line) == ("fsdp_grad_op", 33)
    assert plan.value("memory.gradient_checkpointing") is True
    assert {f.source.line for f in plan.facts("memory.gradient_checkpointing")} == {17, 33}
    assert one(plan, "batch.micro").value == 4
    assert one(plan, "optimizer.name").value == "SGD"
    notes = "\n".join(plan.notes)
    assert "buggy_lit.py:15: Causal sets automatic_optimization = False" in notes
    assert "use_distributed_sampler=False" in notes


def test_words_are_not_detection():
    plan = audit(["not_lightning.py"])
    assert all(f.adapter != "lightning" for name in plan.fields() for f in plan.facts(name))
    assert not any(n.startswith("lightning:") for n in plan.notes)


@pytest.mark.parametrize("value,mode", [
    ('"16-mixed"', "amp_fp16"), ("16", "amp_fp16"), ('"16"', "amp_fp16"), ('"bf16"', "amp_bf16"),
    ('"bf16-mixed"', "amp_bf16"), ('"bf16-true"', "bf16"), ('"16-true"', "fp16"), ('"32-true"', "fp32"),
    ("32", "fp32"), ('"32"', "fp32"), ('"transformer-engine"', "fp8"), ('"transformer-engine-float16"', "fp8"),
])
def test_precision_values(tmp_path, value, mode):
    plan = snippet(tmp_path, f"""
        from lightning.pytorch import Trainer
        trainer = Trainer(precision={value}, devices=1)
    """)
    assert one(plan, "precision.mode").value == mode


def test_defaults_and_auto(tmp_path):
    plan = snippet(tmp_path, """
        import lightning as L
        trainer = L.Trainer(max_epochs=3)
    """)
    prec = one(plan, "precision.mode")
    assert (prec.value, prec.source.kind) == ("fp32", "default") and "32-true" in (prec.source.detail or "")
    assert (one(plan, "batch.grad_accum").value, one(plan, "batch.grad_accum").source.kind) == (1, "default")
    assert "dist.devices_per_node" not in plan and "dist.world_size" not in plan and "dist.sharding" not in plan
    assert any('devices="auto"' in n for n in plan.notes)


def test_cpu_16_mixed_becomes_bf16(tmp_path):
    plan = snippet(tmp_path, """
        import pytorch_lightning as pl
        trainer = pl.Trainer(accelerator="cpu", precision="16-mixed")
    """)
    assert one(plan, "precision.mode").value == "amp_bf16"


@pytest.mark.parametrize("devices,count", [("8", 8), ('"4"', 4), ("[0, 2, 3]", 3), ('"0,1"', 2)])
def test_devices_and_auto_strategy(tmp_path, devices, count):
    plan = snippet(tmp_path, f"""
        from lightning import Trainer
        trainer = Trainer(devices={devices})
    """)
    assert one(plan, "dist.devices_per_node").value == count
    sharding = one(plan, "dist.sharding")
    assert (sharding.value, sharding.source.kind, sharding.confidence) == ("ddp", "default", "medium")


@pytest.mark.parametrize("devices", ["-1", '"-1"', '"auto"'])
def test_all_visible_devices_is_a_note(tmp_path, devices):
    plan = snippet(tmp_path, f"""
        from lightning import Trainer
        trainer = Trainer(devices={devices}, num_nodes=2)
    """)
    assert "dist.devices_per_node" not in plan and "dist.world_size" not in plan
    assert any("all visible devices" in n for n in plan.notes)
    assert one(plan, "dist.sharding").value == "ddp"  # two nodes: auto -> ddp


def test_single_device_auto_is_no_sharding(tmp_path):
    plan = snippet(tmp_path, """
        from lightning import Trainer
        trainer = Trainer(devices=1)
    """)
    assert one(plan, "dist.sharding").value == "none"


@pytest.mark.parametrize("name,sharding,params,optim", [
    ("ddp", "ddp", None, None), ("ddp_find_unused_parameters_true", "ddp", None, None),
    ("ddp_spawn", "ddp", None, None), ("fsdp", "fsdp_full", "none", "none"),
    ("fsdp_cpu_offload", "fsdp_full", "cpu", "cpu"), ("deepspeed", "zero2", "none", "none"),
    ("deepspeed_stage_1", "zero1", "none", "none"), ("deepspeed_stage_2_offload", "zero2", "none", "cpu"),
    ("deepspeed_stage_3", "zero3", "none", "none"), ("deepspeed_stage_3_offload_nvme", "zero3", "nvme", "nvme"),
])
def test_strategy_names(tmp_path, name, sharding, params, optim):
    plan = snippet(tmp_path, f"""
        from lightning import Trainer
        trainer = Trainer(devices=2, strategy="{name}")
    """)
    fact = one(plan, "dist.sharding")
    assert (fact.value, fact.source.kind, fact.source.line) == (sharding, "code", 3)
    assert plan.value("dist.offload_params") == params
    assert plan.value("dist.offload_optimizer") == optim


def test_deepspeed_strategy_object(tmp_path):
    plan = snippet(tmp_path, """
        from lightning.pytorch import Trainer
        from lightning.pytorch.strategies import DeepSpeedStrategy
        strategy = DeepSpeedStrategy(stage=3, offload_optimizer=True, offload_parameters=True,
                                     offload_params_device="nvme")
        trainer = Trainer(devices=8, strategy=strategy)
    """)
    assert one(plan, "dist.sharding").value == "zero3"
    assert one(plan, "dist.offload_optimizer").value == "cpu"
    assert one(plan, "dist.offload_params").value == "nvme"


def test_deepspeed_strategy_config_file_is_a_note(tmp_path):
    plan = snippet(tmp_path, """
        from lightning.pytorch import Trainer
        from lightning.pytorch.strategies import DeepSpeedStrategy
        trainer = Trainer(devices=8, strategy=DeepSpeedStrategy(stage=3, config="ds.json"))
    """)
    assert not mine(plan, "dist.sharding")
    assert any("DeepSpeedStrategy(config='ds.json')" in n and "--config" in n for n in plan.notes)


def test_fsdp_strategy_defaults_and_offload(tmp_path):
    plan = snippet(tmp_path, """
        import lightning as L
        from lightning.pytorch.strategies import FSDPStrategy
        from torch.distributed.fsdp import CPUOffload
        trainer = L.Trainer(strategy=FSDPStrategy(cpu_offload=CPUOffload(offload_params=True)), devices=4)
    """)
    assert one(plan, "dist.sharding").value == "fsdp_full"
    assert one(plan, "dist.offload_params").value == "cpu"
    assert "memory.gradient_checkpointing" not in plan


def test_guarded_trainer_is_medium_and_unknown_values_are_skipped(tmp_path):
    plan = snippet(tmp_path, """
        import os
        import lightning as L
        if os.environ.get("MULTI"):
            trainer = L.Trainer(devices=int(os.environ["N"]), precision="bf16-mixed")
    """)
    assert one(plan, "precision.mode").confidence == "medium"
    assert "dist.devices_per_node" not in plan


def test_cli_emit_plan(tmp_path):
    out = subprocess.run([sys.executable, "-m", "preflight", "audit", "train_lit.py", "--emit-plan", "json",
                          "--", "--devices", "2"],
                         cwd=FIXTURES, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    fields: dict[str, Any] = json.loads(out.stdout)["fields"]
    devices = [f for f in fields["dist.devices_per_node"] if f["adapter"] == "lightning"]
    assert devices[0]["value"] == 2 and devices[0]["source"]["kind"] == "cli"
    assert devices[0]["source"]["key"] == "--devices"
    sharding = [f for f in fields["dist.sharding"] if f["adapter"] == "lightning"]
    assert sharding[0]["value"] == "zero3" and sharding[0]["source"]["line"] == 49
    world = [f for f in fields["dist.world_size"] if f["adapter"] == "lightning"]
    assert world[0]["value"] == 4


def test_hparams_batch_size_default_and_lightning_cli(tmp_path):
    plan = snippet(tmp_path, """
        import lightning.pytorch as pl
        from lightning.pytorch.cli import LightningCLI
        from torch.utils.data import DataLoader

        class Data(pl.LightningDataModule):
            def __init__(self, batch_size: int = 12):
                super().__init__()
                self.save_hyperparameters()

            def train_dataloader(self):
                return DataLoader(self.ds, batch_size=self.hparams.batch_size)

        LightningCLI(datamodule_class=Data)
    """)
    micro = one(plan, "batch.micro")
    assert (micro.value, micro.source.line) == (12, 7) and "default of Data.__init__" in (micro.source.detail or "")
    assert any("LightningCLI" in n for n in plan.notes)


def test_deepspeed_config_passed_with_config_is_known(tmp_path):
    (tmp_path / "ds.json").write_text('{"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 2}')
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from lightning.pytorch import Trainer
        from lightning.pytorch.strategies import DeepSpeedStrategy
        trainer = Trainer(devices=8, strategy=DeepSpeedStrategy(config="./ds.json"))
    """))
    plan = audit(["train.py"], ["ds.json"], root=tmp_path)
    assert plan.value("dist.sharding") == "zero3"  # from the DeepSpeed adapter
    note = next(n for n in plan.notes if "DeepSpeedStrategy(config=" in n)
    assert "--config" not in note


def test_unpacked_kwargs_give_no_defaults(tmp_path):
    plan = snippet(tmp_path, """
        import lightning as L
        cfg = load_config()
        trainer = L.Trainer(devices=4, **cfg["trainer"])
    """)
    assert [(f.value, f.confidence) for f in mine(plan, "dist.devices_per_node")] == [(4, "medium")]
    for field in ("precision.mode", "dist.nodes", "batch.grad_accum", "dist.sharding", "dist.world_size"):
        assert not mine(plan, field), field
    assert any("Trainer(**kwargs)" in n for n in plan.notes)
