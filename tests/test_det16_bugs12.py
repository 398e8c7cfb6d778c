"""Behaviours closed while reading the misses of the bug benchmark's twelfth held-out set (issue 18,
branch det16; bench/bugs/heldout12 is in-sample for these). Each behaviour has a program that must be
flagged and twins that must stay quiet; the programs here are written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def validate(cli, tmp_path: Path, name: str) -> list[dict]:
    result = cli("validate", "--format", "json", name, cwd=tmp_path)
    doc = json.loads(result.out)
    return [p for f in doc["files"] for p in f["problems"]]


@pytest.fixture(autouse=True)
def _fresh_memos():
    from preflight.validate_project import _flags_under, _pins_under

    _pins_under.cache_clear()
    _flags_under.cache_clear()
    yield


def test_a_hydra_trainer_group_of_generic_keys_is_not_read_as_a_neox_config(cli, tmp_path):
    # seed / num_gpus / batch_size are NeoXArgs fields too, but any trainer config has them
    write(tmp_path, "configs/trainer/gpu.yaml", """\
        seed: 1
        num_gpus: 1
        max_epochs: 20
        batch_size: 32
        """)
    assert validate(cli, tmp_path, "configs/trainer/gpu.yaml") == []


def test_a_small_neox_config_with_a_typo_is_still_read_as_one(cli, tmp_path):
    write(tmp_path, "configs/small.yml", """\
        num_layers: 12
        seq_length: 2048
        train_iters: 1000
        lr_decay_iters: 1000
        max_epochs: 3
        """)
    found = validate(cli, tmp_path, "configs/small.yml")
    assert [(p["line"], "NeoXArgs" in p["message"]) for p in found if p["severity"] == "error"] == [(5, True)]
