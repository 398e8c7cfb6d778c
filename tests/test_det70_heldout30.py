"""det70: held-out-30's false twin flag (PF202 on a one-epoch launch) and the rules written for its misses
(in-sample on held-out-30). Each test runs preflight the way a user does (``check`` on the folder, or
``audit`` on the launch script) on a small project rebuilt from the set's case and asserts the code and
line a user sees; each silent twin is the case's fix or a tricky-correct neighbour."""

from __future__ import annotations

import json

# -- PF202: the epoch count read from the launch line (DeepSpeedExamples PR 415's DeepSpeed-Chat launch) ----

_CHAT = """import argparse

import deepspeed
from torch.utils.data import DataLoader, DistributedSampler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_train_epochs", type=int, default={default})
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    args = parser.parse_args()
    loader = DataLoader(train_set, sampler=DistributedSampler(train_set), batch_size=args.per_device_train_batch_size)
    model, optimizer, _, _ = deepspeed.initialize(model=net, args=args, model_parameters=net.parameters())
    for epoch in range(args.num_train_epochs):
        for batch in loader:
            loss = model(**batch).loss
            model.backward(loss)
            model.step()


main()
"""


def _chat(cli, tmp_path, default: int, epochs: str | None) -> list[tuple[str, str, int]]:
    (tmp_path / "main.py").write_text(_CHAT.format(default=default))
    if epochs is not None:
        (tmp_path / "launch.sh").write_text(
            "#!/bin/bash\ndeepspeed main.py \\\n   --per_device_train_batch_size 8 " + epochs + " \\\n"
            "   --output_dir out\n")
    result = cli("check", ".", "--no-cache", "--format", "json", "--select", "PF202", cwd=tmp_path)
    return sorted((f["code"], f["path"], f["line"]) for f in json.loads(result.out)["findings"])


def test_pf202_silent_when_the_launch_line_trains_one_epoch(cli, tmp_path) -> None:
    assert _chat(cli, tmp_path, 3, "--num_train_epochs 1") == []


def test_pf202_silent_when_the_launch_line_keeps_a_default_of_one_epoch(cli, tmp_path) -> None:
    assert _chat(cli, tmp_path, 1, "") == []


def test_pf202_fires_when_the_launch_line_trains_several_epochs(cli, tmp_path) -> None:
    assert _chat(cli, tmp_path, 1, "--num_train_epochs 4") == [("PF202", "main.py", 14)]


def test_pf202_fires_on_a_default_above_one_the_launch_line_keeps(cli, tmp_path) -> None:
    assert _chat(cli, tmp_path, 3, "") == [("PF202", "main.py", 14)]


def test_pf202_fires_on_a_default_of_one_without_a_launch_script(cli, tmp_path) -> None:
    # DeepSpeed-Chat's own launch scripts pass --num_train_epochs 16: a default says nothing of the job
    assert _chat(cli, tmp_path, 1, None) == [("PF202", "main.py", 14)]


def test_pf202_fires_when_the_epoch_count_is_a_shell_variable(cli, tmp_path) -> None:
    assert _chat(cli, tmp_path, 1, "--num_train_epochs $EPOCHS") == [("PF202", "main.py", 14)]


# -- PF505: the engine handed to a save helper of a project module (DeepSpeedExamples PR 415) ----------------

_MAIN = """import argparse

import deepspeed
import torch

from utils.ds_utils import get_train_ds_config
from utils.utils import save_hf_format, save_zero_three_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--zero_stage", type=int, default=0)
    parser.add_argument("--output_dir", default="out")
    args = parser.parse_args()
    ds_config = get_train_ds_config(stage=args.zero_stage)
    model, optimizer, _, _ = deepspeed.initialize(model=net, args=args, config=ds_config,
                                                  model_parameters=net.parameters())
    for batch in loader:
        model.backward(model(**batch).loss)
        model.step()
    if torch.distributed.get_rank() == 0:
        save_hf_format(model, tokenizer, args)
{later}

main()
"""

_UTILS = """import os

import deepspeed
import torch


def save_hf_format(model, tokenizer, args):
    model_to_save = model.module if hasattr(model, "module") else model
    save_dict = model_to_save.state_dict()
    torch.save(save_dict, os.path.join(args.output_dir, "pytorch_model.bin"))


def save_zero_three_model(model, rank, save_dir):
    out = {}
    for k, v in model.module.named_parameters():
        with deepspeed.zero.GatheredParameters([v]):
            out[k] = v.data.cpu()
    if rank == 0:
        torch.save(out, os.path.join(save_dir, "pytorch_model.bin"))
"""

_DS = """def get_train_ds_config(stage=2):
    return {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4,
            "zero_optimization": {"stage": stage}, "fp16": {"enabled": True}}
"""


def _chat_save(cli, tmp_path, stage: int, later: str = "") -> list[tuple[str, str, int]]:
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    (tmp_path / "utils" / "utils.py").write_text(_UTILS)
    (tmp_path / "utils" / "ds_utils.py").write_text(_DS)
    (tmp_path / "main.py").write_text(_MAIN.format(later=later))
    (tmp_path / "launch.sh").write_text(
        f"#!/bin/bash\nZERO_STAGE={stage}\ndeepspeed main.py --zero_stage $ZERO_STAGE --output_dir out\n")
    result = cli("audit", "launch.sh", "--no-cache", "--format", "json", "--select", "PF505", cwd=tmp_path)
    return sorted((f["code"], f["path"], f["line"]) for f in json.loads(result.out)["findings"])


def test_pf505_follows_the_engine_into_a_save_helper_of_another_module(cli, tmp_path) -> None:
    assert _chat_save(cli, tmp_path, 3) == [("PF505", "main.py", 23)]  # the save_hf_format call


def test_pf505_silent_when_the_zero3_weights_are_gathered_after_the_helper(cli, tmp_path) -> None:
    later = ("    if args.zero_stage == 3:\n"
             "        save_zero_three_model(model, torch.distributed.get_rank(), args.output_dir)")
    assert _chat_save(cli, tmp_path, 3, later) == []


def test_pf505_silent_on_the_helper_at_zero_stage_2(cli, tmp_path) -> None:
    assert _chat_save(cli, tmp_path, 2) == []
