"""PF534: `with accelerator.accumulate(model):` entered once around the batch loop, run the way a user
runs `preflight check` (accelerate PR 1211's docstring shape and its fix)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def check(cli, tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    (tmp_path / "train.py").write_text(textwrap.dedent(text), encoding="utf-8")
    result = cli("check", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    doc = json.loads(result.out)
    return [(f["code"], f["line"], f["message"]) for f in doc["findings"] if f["code"] == "PF534"]


AROUND = """\
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForSequenceClassification

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        model.train()
        with accelerator.accumulate(model):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
    """

INSIDE = AROUND.replace("""\
        with accelerator.accumulate(model):
            for batch in loader:
""", """\
        for batch in loader:
            with accelerator.accumulate(model):
""")


def test_the_block_around_the_batch_loop_is_an_error_on_the_with_line(cli, tmp_path):
    found = check(cli, tmp_path, AROUND)
    assert [(c, line) for c, line, _ in found] == [("PF534", 11)]
    assert "once around the whole loop" in found[0][2] and "inside the loop" in found[0][2]


def test_the_block_inside_the_batch_loop_is_quiet(cli, tmp_path):
    assert INSIDE != AROUND
    assert check(cli, tmp_path, INSIDE) == []


def test_a_window_of_one_is_quiet(cli, tmp_path):
    text = AROUND.replace("gradient_accumulation_steps=4", "gradient_accumulation_steps=1")
    assert check(cli, tmp_path, text) == []


def test_a_window_from_the_command_line_still_counts(cli, tmp_path):
    text = AROUND.replace("Accelerator(gradient_accumulation_steps=4)",
                          "Accelerator(gradient_accumulation_steps=args.accum)")
    assert [(c, line) for c, line, _ in check(cli, tmp_path, text)] == [("PF534", 11)]


def test_a_micro_batch_loop_with_the_step_after_it_is_quiet(cli, tmp_path):
    text = INSIDE.replace("""\
                accelerator.backward(model(**batch).loss)
""", """\
                for part in batch["input_ids"].chunk(2):
                    accelerator.backward(model(part).loss / 2)
""")
    assert "chunk(2)" in text
    assert check(cli, tmp_path, text) == []
