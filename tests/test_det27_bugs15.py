"""Behaviours closed while reading the misses and the false positive of the bug benchmark's fifteenth
held-out set (issue 18, branch det27; bench/bugs/heldout15 is in-sample for these). The rules' own
examples are pinned by the meta-tests; these run the CLI the way a user does (programs written here)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


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
