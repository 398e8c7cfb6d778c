"""Behaviours of issue-18 work on branch det80 (held-out-33's false flags and misses) that single-file rule
examples cannot show: an accelerate DeepSpeed config beside a script launched by hand giving the
accumulation window (PF416, accelerate 3836). Programs written here, run through the CLI as a user does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_check_helpers import check, write

# --- PF416: accelerate 3836, `accelerate launch --config_file ds_zero2.yaml train.py` typed by hand ---------------
TRAIN = """\
    import torch
    from accelerate import Accelerator


    def main():
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        # the engine accumulates over gradient_accumulation_steps and steps at its boundary
        for batch in loader:
            with accelerator.accumulate(model):
                optimizer.zero_grad()
                accelerator.backward(model(**batch).loss)
                optimizer.step()
"""
ACC_YAML = """\
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      gradient_accumulation_steps: {steps}
      offload_optimizer_device: cpu
      zero_stage: 2
    distributed_type: {kind}
    mixed_precision: bf16
    num_processes: 8
"""


def test_pf416_is_silent_beside_an_accelerate_deepspeed_config_with_a_window(cli, tmp_path):
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=8, kind="DEEPSPEED"))
    assert check(cli, tmp_path, "PF416") == []


@pytest.mark.parametrize("steps, kind", [
    (1, "DEEPSPEED"),  # the config's window is 1
    (8, "MULTI_GPU"),  # not a DeepSpeed job: accelerate does not read the DeepSpeed block's window
])
def test_pf416_still_reports_beside_a_config_without_a_deepspeed_window(cli, tmp_path, steps, kind):
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=steps, kind=kind))
    assert check(cli, tmp_path, "PF416") == [("train.py", 6)]


def test_pf416_reads_the_launch_script_before_a_config_beside(cli, tmp_path):
    # the launch line names another config (window 1): the one beside with a window is not the job's
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "ds_zero2.yaml", ACC_YAML.format(steps=8, kind="DEEPSPEED"))
    write(tmp_path, "ddp.yaml", ACC_YAML.format(steps=1, kind="DEEPSPEED"))
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --config_file ddp.yaml train.py\n")
    assert check(cli, tmp_path, "PF416") == [("train.py", 6)]


# --- PF669: the Trainer subclass lives in a module the launched script imports (Qwen2-VL-Finetune layout) ----------
VL_TRAINER = """\
    from transformers import Trainer


    class VLTrainer(Trainer):
        def create_optimizer(self):
            groups = [{"params": [p for n, p in self.model.named_parameters() if "visual" in n], "lr": 2e-6}]
            self.optimizer = Trainer.get_optimizer_cls_and_kwargs(self.args)[0](groups)
            return self.optimizer
"""
VL_TRAIN = """\
    import transformers
    from training.trainer import VLTrainer


    def main(model, data):
        (args,) = transformers.HfArgumentParser(transformers.TrainingArguments).parse_args_into_dataclasses()
        VLTrainer(model=model, args=args, train_dataset=data).train()
"""


def audit(cli, tmp_path: Path, *args: str) -> list[tuple[str, int, str]]:
    result = cli("audit", *args, "--select", "PF669", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    found = json.loads(result.out)["findings"]
    return [(Path(f["path"]).name, f["line"], (f.get("evidence") or [{}])[0].get("path", "")) for f in found]


@pytest.mark.parametrize("optimizer, expected", [
    (',\n  "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}', [("zero3.json", 3)]),
    ("", []),  # the fix: no optimizer section, the integration calls create_optimizer
])
def test_pf669_follows_the_trainer_imported_by_the_launched_script(cli, tmp_path, optimizer, expected):
    write(tmp_path, "src/training/trainer.py", VL_TRAINER)
    write(tmp_path, "src/training/train.py", VL_TRAIN)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/zero3.json").write_text('{\n  "zero_optimization": {"stage": 3}' + optimizer + "\n}\n")
    write(tmp_path, "scripts/finetune.sh", "deepspeed src/training/train.py --deepspeed scripts/zero3.json\n")
    found = audit(cli, tmp_path, "scripts/finetune.sh")
    assert [(name, line) for name, line, _ in found] == expected
    assert all(path.endswith("trainer.py") for _, _, path in found)
