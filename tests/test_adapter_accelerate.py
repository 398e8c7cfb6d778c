"""Accelerate adapter: Accelerator(...) arguments, plugins and the accelerate config YAML."""

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

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "accelerate"


def audit(scripts: Sequence[str], configs: Sequence[str] = (), argv: Sequence[str] = (),
          root: Path = FIXTURES) -> TrainingPlan:
    plan, project = build_plan([root / s for s in scripts], [root / c for c in configs], root=root,
                               argv=argv, strict=True)
    assert project.errors == []
    return plan


def mine(plan: TrainingPlan, field: str) -> list[Fact]:
    return [f for f in plan.facts(field) if f.adapter == "accelerate"]


def snippet(tmp_path: Path, code: str, configs: dict[str, str] | None = None) -> TrainingPlan:
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    for name, text in (configs or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return audit(["train.py"], list(configs or {}), root=tmp_path)


def test_registered():
    assert all_adapters()["accelerate"].frameworks == ("accelerate",)


def test_explicit_argument_beats_config():
    plan = audit(["train_acc.py"], ["ds_zero3.yaml"])
    facts = mine(plan, "precision.mode")
    explicit = next(f for f in facts if f.source.kind == "code")
    config = next(f for f in facts if f.source.kind == "config")
    assert (explicit.value, explicit.source.line, explicit.priority) == ("amp_bf16", 13, 1)
    assert "Explicit arg beats config" in (explicit.source.detail or "")
    assert (config.value, config.source.path, config.source.line, config.source.key, config.priority) == \
        ("amp_fp16", "ds_zero3.yaml", 13, "mixed_precision", 0)
    # the config is DeepSpeed: bf16 there is 16-bit weights with fp32 master copies, not autocast
    assert plan.value("precision.mode") == "bf16"
    assert plan.resolve("precision.mode").adapter == "derive"
    assert "precision.mode" in plan.conflicts()  # both kept, the conflict is reported
    accum = plan.resolve("batch.grad_accum")
    assert accum is not None and (accum.value, accum.source.key, accum.priority) == (4, "--grad_accum", 1)
    assert [f.value for f in mine(plan, "batch.grad_accum") if f.source.kind == "config"] == [2]


def test_deepspeed_yaml_world_size_is_total():
    plan = audit(["train_acc.py"], ["ds_zero3.yaml"])
    world = plan.resolve("dist.world_size")
    assert world is not None and (world.value, world.source.line, world.source.key) == (16, 15, "num_processes")
    nodes = plan.resolve("dist.nodes")
    assert nodes is not None and (nodes.value, nodes.source.line) == (2, 14)
    per_node = plan.resolve("dist.devices_per_node")
    assert per_node is not None and (per_node.value, per_node.source.kind) == (8, "derived")
    sharding = plan.resolve("dist.sharding")
    assert sharding is not None and (sharding.value, sharding.source.key, sharding.source.line) == \
        ("zero3", "deepspeed_config.zero_stage", 8)
    assert plan.value("dist.offload_optimizer") == "cpu"
    assert plan.value("dist.offload_params") == "nvme"


def test_prepared_loader_is_per_process_and_eval_loader_ignored():
    plan = audit(["train_acc.py"], ["fsdp.yaml"], argv=["--batch_size", "24"])
    facts = mine(plan, "batch.micro")
    assert len(facts) == 1
    assert (facts[0].value, facts[0].source.kind, facts[0].source.key) == (24, "cli", "--batch_size")
    assert "per process" in (facts[0].source.detail or "")


def test_fsdp2_yaml():
    plan = audit(["train_acc.py"], ["fsdp.yaml"])
    sharding = plan.resolve("dist.sharding")
    assert sharding is not None and (sharding.value, sharding.source.key) == \
        ("fsdp_grad_op", "fsdp_config.fsdp_reshard_after_forward")
    assert plan.value("dist.offload_params") == "cpu"
    assert plan.value("memory.gradient_checkpointing") is True
    assert plan.value("dist.world_size") == 8
    assert plan.conflicts() == {}
    # fsdp_version: 2 prepares the model with fully_shard (FSDP2), which the estimate keys on
    version = plan.resolve("dist.fsdp_version")
    assert version is not None and (version.value, version.source.key) == (2, "fsdp_config.fsdp_version")
    assert version.source.line == 4


def test_fsdp_version_from_the_plugin_and_absent_without_it(tmp_path):
    plan = snippet(tmp_path, """
        from accelerate import Accelerator, FullyShardedDataParallelPlugin
        plugin = FullyShardedDataParallelPlugin(fsdp_version=2, reshard_after_forward=True)
        accelerator = Accelerator(fsdp_plugin=plugin)
    """)
    facts = mine(plan, "dist.fsdp_version")
    assert [(f.value, f.source.kind, f.source.line) for f in facts] == [(2, "code", 3)]
    plan = snippet(tmp_path, """
        from accelerate import Accelerator
        accelerator = Accelerator()
    """, {"acc.yaml": """
        distributed_type: FSDP
        fsdp_config:
          fsdp_sharding_strategy: FULL_SHARD
        num_processes: 2
    """})
    # no key: accelerate's default (1) is not stated, so the estimate's own default applies
    assert plan.resolve("dist.fsdp_version") is None


def test_plugins_and_split_batches():
    plan = audit(["plugins.py"])
    assert plan.value("dist.sharding") == "zero2"
    assert plan.value("dist.offload_optimizer") == "cpu"
    assert {f.source.line for f in mine(plan, "batch.grad_accum")} == {6, 10}
    assert {f.value for f in mine(plan, "batch.grad_accum")} == {16}
    assert mine(plan, "batch.micro") == []  # split_batches: the loader's size is global
    notes = "\n".join(plan.notes)
    assert "split_batches=True" in notes and "plugins.py:13" in notes


def test_bare_accelerator_defaults_and_env_notes():
    plan = audit(["bare.py"])
    prec = mine(plan, "precision.mode")
    assert [(f.value, f.source.kind, f.confidence) for f in prec] == [("fp32", "default", "low")]
    assert any("ACCELERATE_MIXED_PRECISION" in n for n in plan.notes)
    assert any("ACCELERATE_GRADIENT_ACCUMULATION_STEPS" in n for n in plan.notes)


def test_bare_accelerator_with_config_takes_config_values():
    plan = audit(["bare.py"], ["ds_zero3.yaml"])
    assert [f.source.kind for f in mine(plan, "precision.mode")] == ["config"]
    assert [f.value for f in mine(plan, "precision.mode")] == ["amp_fp16"]
    assert plan.value("precision.mode") == "fp16"  # under DeepSpeed: fp16 weights + fp32 master
    assert plan.value("batch.grad_accum") == 2


def test_words_and_lookalike_configs_are_not_detection():
    plan = audit(["not_accelerate.py"], ["settings.yaml"])
    assert plan.fields() == []
    assert not any(n.startswith("accelerate:") for n in plan.notes)


@pytest.mark.parametrize("value,mode", [("no", "fp32"), ("fp16", "amp_fp16"), ("bf16", "amp_bf16"),
                                        ("fp8", "fp8")])
def test_mixed_precision_values(tmp_path, value, mode):
    plan = snippet(tmp_path, f"""
        from accelerate import Accelerator
        accelerator = Accelerator(mixed_precision="{value}")
    """)
    assert [f.value for f in mine(plan, "precision.mode")] == [mode]


def test_fsdp_plugin_and_legacy_yaml_strategy_numbers(tmp_path):
    plan = snippet(tmp_path, """
        from accelerate import Accelerator, FullyShardedDataParallelPlugin
        plugin = FullyShardedDataParallelPlugin(sharding_strategy="HYBRID_SHARD", activation_checkpointing=True)
        accelerator = Accelerator(fsdp_plugin=plugin)
    """, {"acc.yaml": """
        compute_environment: LOCAL_MACHINE
        distributed_type: FSDP
        fsdp_config:
          fsdp_sharding_strategy: 2
          fsdp_offload_params: false
        num_processes: 4
    """})
    facts = mine(plan, "dist.sharding")
    assert {(f.value, f.source.kind, f.priority) for f in facts} == {("fsdp_hybrid", "code", 1),
                                                                       ("fsdp_grad_op", "config", 0)}
    assert plan.value("dist.sharding") == "fsdp_hybrid"
    assert plan.value("memory.gradient_checkpointing") is True
    assert plan.value("dist.offload_params") == "none"
    nodes = plan.resolve("dist.nodes")
    assert nodes is not None and (nodes.value, nodes.source.kind) == (1, "default")


def test_multi_gpu_yaml_and_auto_processes(tmp_path):
    plan = snippet(tmp_path, """
        import accelerate
        acc = accelerate.Accelerator(mixed_precision="bf16")
    """, {"multi.yaml": """
        compute_environment: LOCAL_MACHINE
        distributed_type: MULTI_GPU
        num_machines: 1
        num_processes: -1
    """})
    assert plan.value("dist.sharding") == "ddp"
    assert "dist.world_size" not in plan
    assert any("num_processes: -1: all visible GPUs" in n for n in plan.notes)


def test_cli_emit_plan():
    out = subprocess.run([sys.executable, "-m", "preflight", "audit", "train_acc.py", "--config", "ds_zero3.yaml",
                          "--emit-plan", "json"], cwd=FIXTURES, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    fields: dict[str, Any] = json.loads(out.stdout)["fields"]
    prec = {(f["value"], f["source"]["kind"], f["priority"]) for f in fields["precision.mode"]
            if f["adapter"] == "accelerate"}
    assert prec == {("amp_bf16", "code", 1), ("amp_fp16", "config", 0)}
    world = fields["dist.world_size"][0]
    assert (world["value"], world["source"]["path"], world["source"]["line"]) == (16, "ds_zero3.yaml", 15)


def test_argparse_mixed_precision_from_argv(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import argparse
        from accelerate import Accelerator
        p = argparse.ArgumentParser()
        p.add_argument("--mixed_precision", default="no")
        args = p.parse_args()
        accelerator = Accelerator(mixed_precision=args.mixed_precision)
    """))
    plan = audit(["train.py"], argv=["--mixed_precision", "bf16"], root=tmp_path)
    fact = plan.resolve("precision.mode")
    assert fact is not None and (fact.value, fact.source.kind, fact.source.key, fact.priority) == \
        ("amp_bf16", "cli", "--mixed_precision", 1)
    plan = audit(["train.py"], root=tmp_path)
    fact = plan.resolve("precision.mode")
    assert fact is not None and (fact.value, fact.source.line) == ("fp32", 5)


# yl4579/StyleTTS2 @ 5cedc71c333f8d8b8551ca59378bdcc7af4c9529 train_finetune_accelerate.py:35,132-138,193,246,265,417
# (models.py:672 build_model returns a Munch of networks; optimizers.py:65 build_optimizer a MultiOptimizer),
# launched as README.md:86 ``accelerate launch --mixed_precision=fp16 --num_processes=1 ...``.
STYLETTS2_LIKE = {
    "train.py": """\
        import torch
        from accelerate import Accelerator
        from models import build_model
        from optimizers import build_optimizer

        accelerator = Accelerator()


        def main():
            loader = torch.utils.data.DataLoader(list(range(8)), batch_size=2)
            model = build_model()
            for key in model:
                model[key] = model[key].to(accelerator.device)
            optimizer = build_optimizer({key: model[key].parameters() for key in model})
            model, optimizer, loader = accelerator.prepare(
                model, optimizer, loader
            )
            for i, batch in enumerate(loader):
                loss = model.decoder(batch).sum()
                accelerator.backward(loss)
                optimizer.step('decoder')


        if __name__ == "__main__":
            main()
    """,
    "models.py": """\
        import torch
        from munch import Munch


        def build_model():
            return Munch(decoder=torch.nn.Linear(2, 2), text_encoder=torch.nn.Linear(2, 2))
    """,
    "optimizers.py": """\
        import torch


        class MultiOptimizer:
            def __init__(self, optimizers):
                self.optimizers = optimizers

            def step(self, key):
                self.optimizers[key].step()


        def build_optimizer(params):
            return MultiOptimizer({k: torch.optim.AdamW(p) for k, p in params.items()})
    """,
}


def test_a_prepared_mapping_of_networks_gets_no_autocast(cli, tmp_path):
    """--mixed_precision fp16 on the line, but prepare() gets a dict of networks (iterated and indexed by its
    own keys): Accelerate hands it back unprepared, no forward is autocast: fp32, never the launch flag's
    amp_fp16 at high confidence."""
    from plan_helpers import plan_of, write

    write(tmp_path, STYLETTS2_LIKE)
    plan = TrainingPlan.from_dict(plan_of(cli, "--", "accelerate", "launch", "--mixed_precision=fp16",
                                          "--num_processes=1", "train.py", cwd=tmp_path))
    won = plan.resolve("precision.mode")
    assert won is not None and won.value == "fp32" and won.confidence == "medium" and won.adapter == "accelerate"
    assert won.source.path == "train.py" and won.source.line == 15
    assert "mapping of networks" in won.source.detail


def test_a_prepared_module_keeps_the_launch_precision(cli, tmp_path):
    """Silent twins: the same job preparing an nn.Module (indexed by no key of its own), or a mapping
    next to an argument whose use says nothing of what it is: the launch line's fp16 autocast stands."""
    from plan_helpers import plan_of, write

    files = dict(STYLETTS2_LIKE)
    files["train.py"] = files["train.py"].replace(
        "            for key in model:\n                model[key] = model[key].to(accelerator.device)\n", "").replace(
        "model = build_model()", "model = torch.nn.Linear(2, 2)").replace(
        "build_optimizer({key: model[key].parameters() for key in model})", "torch.optim.AdamW(model.parameters())")
    for variant in (files, {**STYLETTS2_LIKE, "train.py": STYLETTS2_LIKE["train.py"].replace(
            "model, optimizer, loader\n            )", "model, optimizer, loader, ema\n            )").replace(
            "loader = torch.utils", "ema = make_ema()\n            loader = torch.utils")}):
        write(tmp_path, variant)
        plan = TrainingPlan.from_dict(plan_of(cli, "--", "accelerate", "launch", "--mixed_precision=fp16",
                                              "--num_processes=1", "train.py", cwd=tmp_path))
        assert plan.resolve("precision.mode").value == "amp_fp16"
        assert not [f for f in plan.facts("precision.mode") if "mapping of networks" in (f.source.detail or "")]


def test_one_process_and_no_wrapper_is_no_sharding(cli, tmp_path):
    """yl4579/StyleTTS2 README.md:86 ``accelerate launch --num_processes=1``: nothing wraps the model, so
    dist.sharding is none (medium, derived). Silent twin: two processes (DDP by accelerate's prepare, not
    claimed here)."""
    from plan_helpers import plan_of, write

    write(tmp_path, STYLETTS2_LIKE)
    plan = TrainingPlan.from_dict(plan_of(cli, "--", "accelerate", "launch", "--mixed_precision=fp16",
                                          "--num_processes=1", "train.py", cwd=tmp_path))
    won = plan.resolve("dist.sharding")
    assert won is not None and won.value == "none" and won.confidence == "medium" and won.adapter == "derive"
    plan = TrainingPlan.from_dict(plan_of(cli, "--", "accelerate", "launch", "--mixed_precision=fp16",
                                          "--num_processes=2", "train.py", cwd=tmp_path))
    assert plan.resolve("dist.sharding") is None or plan.resolve("dist.sharding").value != "none"


_BARE_DS = """
    compute_environment: LOCAL_MACHINE
    #deepspeed_config:
    #  offload_optimizer_device: cpu
    #  zero_stage: 3
    distributed_type: DEEPSPEED
    mixed_precision: bf16
    num_machines: 1
    num_processes: 8
"""


def test_deepspeed_without_a_block_is_the_plugin_default_zero2(tmp_path):
    # taishan1994/DPO-Finetuning accelerate_config/default_config.yaml: the block commented out
    plan = snippet(tmp_path, """
        import accelerate
        acc = accelerate.Accelerator()
    """, {"ds.yaml": _BARE_DS})
    sharding = [f for f in mine(plan, "dist.sharding")]
    assert [f.value for f in sharding] == ["zero2"] and sharding[0].confidence == "medium"
    assert [f.value for f in mine(plan, "dist.offload_optimizer")] == ["none"]


def test_deepspeed_without_a_block_twins_say_nothing(tmp_path):
    # a block that names a config file: its settings are elsewhere; a launch flag names the stage
    plan = snippet(tmp_path, """
        import accelerate
        acc = accelerate.Accelerator()
    """, {"ds.yaml": """
        distributed_type: DEEPSPEED
        deepspeed_config:
          deepspeed_config_file: ds.json
        num_processes: 8
    """})
    assert mine(plan, "dist.sharding") == [] and mine(plan, "dist.offload_optimizer") == []
    (tmp_path / "ds.yaml").write_text(textwrap.dedent(_BARE_DS), encoding="utf-8")
    plan = audit(["train.py"], ["ds.yaml"], argv=["accelerate", "launch", "--config_file", "ds.yaml",
                                                  "--zero_stage", "3", "train.py"], root=tmp_path)
    assert all(f.value != "zero2" for f in mine(plan, "dist.sharding"))
    assert mine(plan, "dist.offload_optimizer") == []
