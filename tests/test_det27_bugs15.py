"""Behaviours closed while reading the misses and the false positive of the bug benchmark's fifteenth
held-out set (issue 18, branch det27; bench/bugs/heldout15 is in-sample for these). The rules' own
examples are pinned by the meta-tests; these run the CLI the way a user does (programs written here)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_check_helpers import write


def check(cli, tmp_path: Path, code: str) -> list[tuple[str, int]]:
    result = cli("check", ".", "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    doc = json.loads(result.out)
    return [(Path(f["path"]).name, f["line"]) for f in doc["findings"] if f["code"] == code]


EVAL = """\
    import math

    import torch
    from accelerate import Accelerator


    def evaluate(accelerator, model, eval_dataloader, eval_dataset, batch_size):
        model.eval()
        losses = []
        for step, batch in enumerate(eval_dataloader):
            with torch.no_grad():
                outputs = model(**batch)
            losses.append(accelerator.gather(outputs.loss.repeat(batch_size)))
        losses = torch.cat(losses)
        TRUNCATE
        return math.exp(torch.mean(losses))
    """


def test_gathered_losses_truncated_to_the_eval_set_are_not_reported(cli, tmp_path):
    write(tmp_path, "evaluate.py", EVAL.replace("TRUNCATE", "losses = losses[: len(eval_dataset)]"))
    assert check(cli, tmp_path, "PF414") == []


def test_the_same_loop_without_the_truncation_is_reported_at_the_gather(cli, tmp_path):
    write(tmp_path, "evaluate.py", EVAL.replace("TRUNCATE", "pass"))
    assert check(cli, tmp_path, "PF414") == [("evaluate.py", 13)]


def test_a_slice_by_another_length_does_not_excuse_the_gather(cli, tmp_path):
    write(tmp_path, "evaluate.py", EVAL.replace("TRUNCATE", "losses = losses[: len(shown_examples)]"))
    assert check(cli, tmp_path, "PF414") == [("evaluate.py", 13)]


def audit(cli, tmp_path: Path, script: str, code: str, *extra: str) -> list[tuple[str, int]]:
    """``extra`` holds more scripts and options, then ``--`` and the launch line, in that order."""
    cut = extra.index("--") if "--" in extra else len(extra)
    result = cli("audit", script, *extra[:cut], "--format", "json", "--no-cache", "--exit-zero", *extra[cut:],
                 cwd=tmp_path)
    doc = json.loads(result.out)
    return [(Path(f["path"]).name, f["line"]) for f in doc["findings"] if f["code"] == code]


DS_TRAIN = """\
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        ds_config = {"train_micro_batch_size_per_gpu": 4}
        engine, *_ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                          config=ds_config)
        return engine
    """


def test_a_config_passed_twice_is_reported_when_the_launch_line_sets_deepspeed_config(cli, tmp_path):
    write(tmp_path, "train.py", DS_TRAIN)
    launch = ("--", "deepspeed", "--num_gpus", "2", "train.py", "--deepspeed", "--deepspeed_config", "ds.json")
    assert audit(cli, tmp_path, "train.py", "PF609", *launch) == [("train.py", 12)]


def test_the_same_call_without_deepspeed_config_on_the_launch_line_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", DS_TRAIN)
    assert audit(cli, tmp_path, "train.py", "PF609", "--", "deepspeed", "--num_gpus", "2", "train.py") == []


LIGHTNING_SYSTEM = """\
    import lightning.pytorch as pl


    class System(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = AUTO

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            self.manual_backward(self(batch).mean())
            opt.step()
    """

LAUNCH = """\
    import lightning.pytorch as pl
    from omegaconf import OmegaConf

    from systems import System

    cfg = OmegaConf.load("configs/run.yaml")
    trainer = pl.Trainer(devices=1, **cfg.trainer)
    trainer.fit(System())
    """


def test_accumulation_spread_from_the_yaml_into_a_manual_optimization_trainer_is_reported(cli, tmp_path):
    write(tmp_path, "systems.py", LIGHTNING_SYSTEM.replace("AUTO", "False"))
    write(tmp_path, "launch.py", LAUNCH)
    write(tmp_path, "configs/run.yaml", "trainer:\n  max_steps: 100\n  accumulate_grad_batches: 8\n")
    found = audit(cli, tmp_path, "launch.py", "PF405", "systems.py", "--config", "configs")
    assert found == [("run.yaml", 3)]


def test_the_same_yaml_with_automatic_optimization_is_quiet(cli, tmp_path):
    write(tmp_path, "systems.py", LIGHTNING_SYSTEM.replace("AUTO", "True"))
    write(tmp_path, "launch.py", LAUNCH)
    write(tmp_path, "configs/run.yaml", "trainer:\n  max_steps: 100\n  accumulate_grad_batches: 8\n")
    assert audit(cli, tmp_path, "launch.py", "PF405", "systems.py", "--config", "configs") == []
