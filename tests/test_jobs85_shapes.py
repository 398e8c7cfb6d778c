"""jobs85 (issue 15, set 39 in-sample): fixtures of our own in the shapes of two real jobs.

- A Hydra defaults list naming configs that a package of the project stores in the ConfigStore
  (yuvalkirstain/PickScore @ 2fc5a8d: ``trainer/conf/config.yaml`` ``defaults: [base_config, _self_]``,
  ``trainer/configs/__init__.py`` ``cs.store(name="base_config", node=TrainerConfig)`` whose ``defaults``
  field chooses group options stored in other packages): composed from the dataclasses read statically
  (adapters/hydra_config_store.py), never imported.
- A typer command whose parameters typer_config's ``@use_yaml_config(param_name="config")`` fills from
  the file of ``--config``, handed to ``TrainingArguments(..., **({...} if V5 else {...}), ...)``
  (amazon-science/chronos-forecasting @ 95185d1 scripts/training/train.py:504-680).
"""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, write
from preflight.adapters.hydra_core_compose import hydra_available

STORE_SCRIPT = """\
    import hydra
    import torch
    from torch.utils.data import DataLoader

    import pkg.configs  # noqa: F401  (registers the structured configs)


    @hydra.main(version_base=None, config_path="../conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        loader = DataLoader(list(range(8)), batch_size=cfg.dataset.batch_size, num_workers=cfg.dataset.num_workers)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""
CONFIGS_INIT = """\
    from hydra.core.config_store import ConfigStore

    from pkg.configs.configs import TrainerConfig

    cs = ConfigStore.instance()
    cs.store(name="base_config", node=TrainerConfig)
"""
CONFIGS = """\
    from dataclasses import dataclass, field
    from typing import Any, List

    from omegaconf import MISSING

    import pkg.datasets  # noqa: F401

    defaults = [{"dataset": "{choice}"}]


    @dataclass
    class TrainerConfig:
        defaults: List[Any] = field(default_factory=lambda: defaults)
        dataset: Any = MISSING
        output_dir: str = "outputs"
"""
DATASETS_INIT = """\
    from hydra.core.config_store import ConfigStore

    from pkg.datasets.base import ClipDatasetConfig

    GROUP = "dataset"
    cs = ConfigStore.instance()
    cs.store(group=GROUP, name="clip", node=ClipDatasetConfig)
"""
DATASETS_BASE = """\
    from dataclasses import dataclass


    @dataclass
    class BaseDatasetConfig:
        batch_size: int = 4
        num_workers: int = 2


    @dataclass
    class ClipDatasetConfig(BaseDatasetConfig):
        name: str = "pickapic"
"""
CONFIG = """\
    defaults:
      - base_config
      - _self_
"""
EXPERIMENT = """\
    # @package _global_
    dataset:
      batch_size: 16
"""


def _store_project(tmp_path, choice: str = "clip") -> None:
    write(tmp_path, {"scripts/train.py": STORE_SCRIPT, "pkg/__init__.py": "", "pkg/configs/__init__.py": CONFIGS_INIT,
                     "pkg/configs/configs.py": CONFIGS.replace("{choice}", choice),
                     "pkg/datasets/__init__.py": DATASETS_INIT, "pkg/datasets/base.py": DATASETS_BASE,
                     "conf/config.yaml": CONFIG, "conf/experiment/big.yaml": EXPERIMENT})


@pytest.mark.skipif(hydra_available() is None, reason="hydra-core composes the ConfigStore entries")
def test_config_store_entries_of_the_project_are_read_from_their_dataclasses(cli, tmp_path):
    _store_project(tmp_path)
    plan = plan_of(cli, "scripts/train.py", "--", "+experiment=big", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 16  # the experiment file over the dataclass's 4
    assert fact(plan, "data.num_workers").value == 2  # the group option's base class
    assert any("ConfigStore" in n and "dataclasses read statically" in n for n in plan["notes"])


@pytest.mark.skipif(hydra_available() is None, reason="hydra-core composes the ConfigStore entries")
def test_twin_without_the_experiment_the_dataclass_default_counts(cli, tmp_path):
    _store_project(tmp_path)
    plan = plan_of(cli, "scripts/train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 4


def test_twin_a_group_option_nobody_stores_still_gives_a_plan(cli, tmp_path):
    # the stored base names ``dataset: other``, stored nowhere: not composed, but the job is read on
    _store_project(tmp_path, choice="other")
    res = cli("audit", "scripts/train.py", "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err


TYPER_SCRIPT = """\
    import torch
    import typer
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
    from typer_config import use_yaml_config

    _V5 = transformers_major() >= 5
    app = typer.Typer()


    @app.command()
    @use_yaml_config(param_name="config")
    def main(
        data_paths: str,
        per_device_train_batch_size: int = 8,
        gradient_accumulation_steps: int = 2,
        optim: str = "adamw_torch",
        warmup_ratio: float = 0.0,
        max_steps: int = 1000,
        torch_compile: bool = False,
    ):
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(
            output_dir="out",
            per_device_train_batch_size=per_device_train_batch_size,
            {splat},
            optim=optim,
            gradient_accumulation_steps=gradient_accumulation_steps,
            torch_compile=torch_compile,
        )
        Trainer(model=model, args=args, train_dataset=None).train()


    if __name__ == "__main__":
        app()
"""
TYPER_YAML = """\
    data_paths: /data/train.arrow
    per_device_train_batch_size: 32
    gradient_accumulation_steps: 1
    optim: adamw_torch_fused
    torch_compile: true
"""
SAME_KEYS = ('**({"warmup_steps": round(warmup_ratio * max_steps)} if _V5 else {"warmup_ratio": warmup_ratio})')
PRECISION_ARMS = '**({"bf16": True} if _V5 else {"fp16": True})'


def test_typer_config_file_fills_the_parameters_of_a_trainer_call_with_a_conditional_splat(cli, tmp_path):
    write(tmp_path, {"train.py": TYPER_SCRIPT.replace("{splat}", SAME_KEYS), "configs/small.yaml": TYPER_YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "configs/small.yaml", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32
    assert fact(plan, "batch.grad_accum").value == 1
    assert fact(plan, "optimizer.name").value == "adamw_torch_fused"
    assert fact(plan, "compile.enabled").value is True
    # the arms write warmup keys only: the TrainingArguments defaults of the other keys are recorded
    assert fact(plan, "precision.mode").value == "fp32"
    assert fact(plan, "data.pin_memory").value is True


def test_twin_the_line_wins_over_the_file(cli, tmp_path):
    write(tmp_path, {"train.py": TYPER_SCRIPT.replace("{splat}", SAME_KEYS), "configs/small.yaml": TYPER_YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "configs/small.yaml", "--per-device-train-batch-size", "4",
                   cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 4


def test_twin_arms_that_set_precision_differently_leave_it_open(cli, tmp_path):
    write(tmp_path, {"train.py": TYPER_SCRIPT.replace("{splat}", PRECISION_ARMS), "configs/small.yaml": TYPER_YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "configs/small.yaml", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32
    got = fact(plan, "precision.mode")
    assert got is None or got.value not in ("fp32",)  # bf16 or fp16, not the default
