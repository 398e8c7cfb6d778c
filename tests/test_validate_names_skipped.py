"""``preflight validate DIR`` names every file it found and did not validate, one line each with why
(it counted them, "3 files not recognised as a config", without naming one). Rebuilt from
artidoro/qlora @ 7f4e95a, whose ``data/mmlu/*.json`` are MMLU prompts (a JSON list of records), one of
them read as a template; the layout here is written for the test, not copied."""

from __future__ import annotations

import json

from conftest import write

MMLU_ROWS = json.dumps([{"input": "The following are multiple choice questions (with answers) about "
                                  "anatomy.\n\nWhat is the embryological origin of the hyoid bone?\n"
                                  "A. The first pharyngeal arch\nB. The second pharyngeal arch\nAnswer:",
                         "output": "B", "subject": "anatomy"}] * 3)


def test_each_file_found_and_not_validated_gets_one_line_with_its_reason(cli, tmp_path):
    write(tmp_path / "ds/zero2.json", '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}\n')
    for name in ("five_shot_mmlu_test", "five_shot_mmlu_val", "zero_shot_mmlu_test"):
        write(tmp_path / f"data/mmlu/{name}.json", MMLU_ROWS)
    write(tmp_path / "eval/answers.json", '{"question_id": 1, "text": "a"}\n{"question_id": 2, "text": "b"}\n')
    result = cli("validate", ".", cwd=tmp_path)
    assert result.code == 0
    lines = result.out.splitlines()
    why_data = ("note: not validated: no DeepSpeed, accelerate, TrainingArguments/SFTConfig, Lightning Trainer "
                "or GPT-NeoX settings recognised [not-recognised]")
    assert [line for line in lines if "[not-recognised]" in line] == [
        f"data/mmlu/five_shot_mmlu_test.json: {why_data}",
        f"data/mmlu/five_shot_mmlu_val.json: {why_data}",
        f"data/mmlu/zero_shot_mmlu_test.json: {why_data}",
        "eval/answers.json: note: not validated: it does not parse (invalid JSON: Extra data, line 2)"
        " and neither its name nor its keys are a training config's [not-recognised]",
    ]
    assert lines[-1] == "Validated 1 file (deepspeed): no problems; 4 files not recognised as a config"
    doc = json.loads(cli("validate", ".", "--format", "json", cwd=tmp_path).out)
    assert doc["not_recognised"] == ["data/mmlu/five_shot_mmlu_test.json", "data/mmlu/five_shot_mmlu_val.json",
                                     "data/mmlu/zero_shot_mmlu_test.json", "eval/answers.json"]
    assert doc["not_recognised_why"]["data/mmlu/zero_shot_mmlu_test.json"].startswith("no DeepSpeed")


def test_a_folder_of_configs_only_gets_no_such_line(cli, tmp_path):
    write(tmp_path / "ds/zero2.json", '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}\n')
    result = cli("validate", ".", cwd=tmp_path)
    assert (result.code, result.out) == (0, "Validated 1 file (deepspeed): no problems\n")
