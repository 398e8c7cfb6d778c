"""Behaviours of issue-18 work on branch det86 (held-out-35's false flags) that single-file rule examples
cannot show: the launch line ``preflight audit`` is given deciding one process (PF414, accelerate PR 500's
gradient-accumulation example launched with ``--num_processes 1``). Programs written here, run through the
CLI as a user does."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

EVAL = """\
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, eval_dataloader = accelerator.prepare(model, eval_dataloader)
    model.eval()
    for batch in eval_dataloader:
        with torch.no_grad():
            predictions = model(**batch).logits.argmax(-1)
        predictions, references = accelerator.gather((predictions, batch["labels"]))
        metric.add_batch(predictions=predictions, references=references)
"""


def audit(cli, tmp_path: Path, launch: str) -> list[tuple[str, int]]:
    (tmp_path / "train.py").write_text(textwrap.dedent(EVAL), encoding="utf-8")
    res = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", "--", *launch.split(),
              cwd=tmp_path)
    return [(f["code"], f["line"]) for f in json.loads(res.out)["findings"] if f["code"] == "PF414"]


def test_pf414_is_silent_when_the_audited_launch_line_starts_one_process(cli, tmp_path):
    assert audit(cli, tmp_path, "accelerate launch --num_processes 1 train.py") == []


@pytest.mark.parametrize("launch", ["accelerate launch --num_processes 2 train.py", "python train.py",
                                    "torchrun --nproc_per_node 4 train.py"])
def test_pf414_still_reports_on_several_processes_or_an_unknown_count(cli, tmp_path, launch):
    assert audit(cli, tmp_path, launch) == [("PF414", 10)]
