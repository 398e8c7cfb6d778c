"""A DeepSpeed precision switch written as a JSON string: the lax-mode note must not call it harmless without saying
what PF670 reports (releases before 0.17.1 read the raw string, the HF Trainer's config check rejects it)."""

from __future__ import annotations

import json


def _note_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "[converted-value]" in line]


def test_a_string_precision_switch_note_names_the_releases_that_read_it_raw(cli, tmp_path):
    (tmp_path / "ds_config.json").write_text(json.dumps({"train_batch_size": 8, "bf16": {"enabled": "false"}}))
    result = cli("validate", "ds_config.json")
    [note] = _note_lines(result.out)
    assert note.startswith('ds_config.json:1: note: bf16.enabled is "false" (string); DeepSpeed converts it')
    assert 'releases before 0.17.1 read the raw string ("false" is on)' in note
    assert "(PF670)" in note


def test_another_converted_string_keeps_the_plain_note(cli, tmp_path):
    (tmp_path / "ds_config.json").write_text(json.dumps(
        {"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_comm": "true"}}))
    result = cli("validate", "ds_config.json")
    [note] = _note_lines(result.out)
    assert "zero_optimization.overlap_comm" in note
    assert note.endswith("but a plain JSON value is clearer [converted-value]")
