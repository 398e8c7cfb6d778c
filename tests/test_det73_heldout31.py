"""Behaviours of issue-18 work on branch det73 (held-out-31's false flags and misses) that single-file rule
examples cannot show: an optimizer chosen by an early ``return`` arm (the plan's ``optimizer.name``, PF501),
the launch scripts beside a script deciding one process (PF414) or the accumulation window (PF416).
Programs written here, run through the CLI as a user does."""

from __future__ import annotations

import pytest
from cli_check_helpers import check, write
from plan_helpers import plan_of

# --- an optimizer picked by an early return: RecBole trainer.py @ f8d87147^ _build_optimizer ---------------------
TRAINER = """\
    import torch.optim as optim

    LEARNER = {learner}


    class Trainer(object):
        def __init__(self, config, model):
            self.model = model
            self.learner = config["learner"]
            self.optimizer = self._build_optimizer()

        def _build_optimizer(self):
            if {test}.lower() == "adam":
                return optim.Adam(self.model.parameters(), lr=1e-3)
            return optim.SGD(self.model.parameters(), lr=1e-3)

        def fit(self, loader):
            for x in loader:
                self.optimizer.zero_grad()
                self.model(x).backward()
                self.optimizer.step()
"""


def _optimizers(plan: dict) -> list[tuple[str, int]]:
    return sorted((f["value"], f["source"]["line"]) for f in plan["fields"].get("optimizer.name", [])
                  if f["adapter"] == "pytorch")


def test_the_arm_after_an_undecided_early_return_is_an_alternative_not_the_optimizer(cli, tmp_path):
    write(tmp_path, "trainer.py", TRAINER.format(learner='"adam"', test="self.learner"))
    assert _optimizers(plan_of(cli, "trainer.py", cwd=tmp_path)) == []


@pytest.mark.parametrize("learner, want", [('"sgd"', [("SGD", 15)]), ('"adam"', [("Adam", 14)])])
def test_a_decided_early_return_picks_its_arm(cli, tmp_path, learner, want):
    write(tmp_path, "trainer.py", TRAINER.format(learner=learner, test="LEARNER"))
    assert _optimizers(plan_of(cli, "trainer.py", cwd=tmp_path)) == want


# --- PF414: gather in an evaluation loop, launched on one process (transformers 11555's run_glue_no_trainer) ---
GLUE = """\
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, eval_dataloader = accelerator.prepare(model, eval_dataloader)
    model.eval()
    for batch in eval_dataloader:
        with torch.no_grad():
            predictions = model(**batch).logits.argmax(-1)
        metric.add_batch(predictions=accelerator.gather(predictions), references=accelerator.gather(batch["labels"]))
"""


def test_pf414_is_silent_on_a_one_process_accelerate_launch(cli, tmp_path):
    write(tmp_path, "run_glue.py", GLUE)
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --num_processes 1 run_glue.py --task_name stsb\n")
    assert check(cli, tmp_path, "PF414") == []


@pytest.mark.parametrize("lines", [
    ["accelerate launch --num_processes 4 run_glue.py"],
    ["accelerate launch --num_processes 1 run_glue.py", "accelerate launch --num_processes 2 run_glue.py"],
    ["python run_glue.py"],
])
def test_pf414_still_reports_when_a_launch_starts_several_processes_or_an_unknown_count(cli, tmp_path, lines):
    write(tmp_path, "run_glue.py", GLUE)
    write(tmp_path, "launch.sh", "#!/bin/bash\n" + "\n".join(lines) + "\n")
    assert check(cli, tmp_path, "PF414") == [("run_glue.py", 10), ("run_glue.py", 10)]


# --- PF416: the window from the accelerate config's DeepSpeed block (transformers 45656) -------------------------
SFT = """\
    import torch
    from accelerate import Accelerator


    def main():
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        steps = len(loader) // accelerator.gradient_accumulation_steps
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
"""
DS_YAML = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: DEEPSPEED
    deepspeed_config:
      gradient_accumulation_steps: {steps}
      zero_stage: 2
    mixed_precision: bf16
    num_processes: 8
"""


def test_pf416_is_silent_when_the_launched_deepspeed_config_sets_the_window(cli, tmp_path):
    write(tmp_path, "train_sft.py", SFT)
    write(tmp_path, "ds_zero2.yaml", DS_YAML.format(steps=4))
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --config_file ds_zero2.yaml train_sft.py\n")
    assert check(cli, tmp_path, "PF416") == []


def test_pf416_is_silent_when_the_launch_line_gives_deepspeed_a_window(cli, tmp_path):
    write(tmp_path, "train_sft.py", SFT)
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --use_deepspeed --zero_stage 2 "
          "--gradient_accumulation_steps 8 train_sft.py\n")
    assert check(cli, tmp_path, "PF416") == []


@pytest.mark.parametrize("launch", [
    "accelerate launch --config_file ds_zero2.yaml train_sft.py",  # the config's window is 1
    "accelerate launch --gradient_accumulation_steps 8 train_sft.py",  # read by accelerate only with DeepSpeed
    "accelerate launch --config_file other.yaml train_sft.py",  # a config that is not there
])
def test_pf416_still_reports_without_a_launcher_window(cli, tmp_path, launch):
    write(tmp_path, "train_sft.py", SFT)
    write(tmp_path, "ds_zero2.yaml", DS_YAML.format(steps=1))
    write(tmp_path, "launch.sh", f"#!/bin/bash\n{launch}\n")
    assert check(cli, tmp_path, "PF416") == [("train_sft.py", 6)]
