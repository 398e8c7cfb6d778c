"""ZeRO parameter offload below stage 3 offloads nothing (issue 15): DeepSpeed hands the
offload-param config only to its stage-3 optimizer ("valid only with stage 3"), so the plan's
``dist.offload_params`` is ``none`` with the reason, PF504 still reports the configured value,
and the audit shows no conflict. Modelled on FlagAlpha/Llama2-Chinese
``train/sft/ds_config_zero2.json:32-40`` @ e789431453ecbee9d8c5d466351765bc3718ed60 (stage 2 with
``offload_optimizer`` and ``offload_param`` both ``cpu``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.plan import TrainingPlan

TRAIN = "import deepspeed\nimport torch\nmodel = torch.nn.Linear(4, 4)\nengine, *_ = deepspeed.initialize(model=model, config='ds.json')\n"


def _ds(stage: object) -> str:
    zero: dict = {"offload_optimizer": {"device": "cpu", "pin_memory": True},
                  "offload_param": {"device": "cpu", "pin_memory": True}}
    if stage is not None:
        zero["stage"] = stage
    return json.dumps({"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": True},
                       "zero_optimization": zero}, indent=2)


def _audit(cli, tmp_path: Path, config: str, name: str = "ds.json") -> tuple[TrainingPlan, str]:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / name).write_text(config)
    res = cli("audit", "train.py", "--config", name, "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    text = cli("audit", "train.py", "--config", name, cwd=tmp_path).out
    return TrainingPlan.from_dict(json.loads(res.out)), text


@pytest.mark.parametrize("stage", [2, 1, None])
def test_param_offload_below_stage3_is_none_in_effect(cli, tmp_path: Path, stage: object) -> None:
    plan, text = _audit(cli, tmp_path, _ds(stage))
    best = plan.resolve("dist.offload_params")
    assert best is not None and best.value == "none"
    assert best.source.detail is not None and "only at stage 3" in best.source.detail
    assert plan.value("dist.offload_optimizer") == "cpu"  # stages 1-2 do offload the optimizer
    assert "PF504" in text  # the configured value is still reported
    assert "0 with conflicting values" in text and "! conflict" not in text


def test_stage3_keeps_the_offload(cli, tmp_path: Path) -> None:
    plan, text = _audit(cli, tmp_path, _ds(3))
    assert plan.value("dist.offload_params") == "cpu"
    assert "PF504" not in text


def test_auto_stage_decides_nothing(cli, tmp_path: Path) -> None:
    plan, _ = _audit(cli, tmp_path, _ds("auto"))
    assert plan.value("dist.offload_params") == "cpu"  # the stage is filled in at run time


def test_accelerate_offload_param_device_below_stage3(cli, tmp_path: Path) -> None:
    config = ("compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  offload_optimizer_device: cpu\n"
              "  offload_param_device: cpu\n  zero_stage: 2\ndistributed_type: DEEPSPEED\nmixed_precision: bf16\n"
              "num_machines: 1\nnum_processes: 2\n")
    (tmp_path / "train.py").write_text("from accelerate import Accelerator\naccelerator = Accelerator()\n")
    (tmp_path / "acc.yaml").write_text(config)
    res = cli("audit", "train.py", "--config", "acc.yaml", "--emit-plan", "json", cwd=tmp_path)
    plan = TrainingPlan.from_dict(json.loads(res.out))
    assert plan.value("dist.offload_params") == "none"
    assert plan.value("dist.sharding") == "zero2"
