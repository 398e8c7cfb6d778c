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
