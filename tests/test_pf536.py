"""PF536: EarlyStoppingCallback with TrainingArguments its on_train_begin assertions reject (axolotl
issues 73 and 28), run the way a user runs `preflight audit` on the script (plan rules run under audit)."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write

TRAIN = """\
    from transformers import EarlyStoppingCallback, Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out",
        evaluation_strategy="steps",
        eval_steps=50,
        save_steps=50,
        metric_for_best_model="eval_loss",
    )
    trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev,
                      callbacks=[EarlyStoppingCallback(early_stopping_patience=3)])
    trainer.train()
    """


def found(cli, root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write(root, files)
    res = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=root)
    doc = json.loads(res.out)
    return [(f["path"], f["line"], f["message"]) for f in doc["findings"] if f["code"] == "PF536"]


def test_a_pin_before_4_48_makes_the_missing_best_model_an_error_at_the_callback(cli, tmp_path):
    out = found(cli, tmp_path, {"train.py": TRAIN, "requirements.txt": "transformers==4.30.2\n"})
    assert [(f, line) for f, line, _ in out] == [("train.py", 11)]
    assert "load_best_model_at_end = True" in out[0][2] and "4.30.2" in out[0][2]


def test_without_a_pin_the_warning_only_release_is_assumed(cli, tmp_path):
    assert found(cli, tmp_path, {"train.py": TRAIN}) == []


def test_the_fix_is_quiet_on_the_old_release(cli, tmp_path):
    fixed = TRAIN.replace('    metric_for_best_model="eval_loss",\n',
                          '    metric_for_best_model="eval_loss",\n    load_best_model_at_end=True,\n')
    assert found(cli, tmp_path, {"train.py": fixed, "requirements.txt": "transformers==4.30.2\n"}) == []


def test_no_evaluation_is_an_error_on_every_release(cli, tmp_path):
    text = TRAIN.replace('    evaluation_strategy="steps",\n', "")
    out = found(cli, tmp_path, {"train.py": text})
    assert [(f, line) for f, line, _ in out] == [("train.py", 10)]
    assert "IntervalStrategy of steps or epoch" in out[0][2]


def test_no_metric_and_no_best_model_is_an_error_on_every_release(cli, tmp_path):
    text = TRAIN.replace('    metric_for_best_model="eval_loss",\n', "")
    out = found(cli, tmp_path, {"train.py": text})
    assert [line for _, line, _ in out] == [10]
    assert "metric_for_best_model" in out[0][2]
