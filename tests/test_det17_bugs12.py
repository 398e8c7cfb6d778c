"""Behaviours closed while reading more misses of the bug benchmark's twelfth held-out set (issue 18,
branch det17; bench/bugs/heldout12 is in-sample for these). The rules' own examples are pinned by the
meta-tests; these run the CLI the way a user does (the programs are written from scratch)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

STRICT = """\
    import argparse


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=1)
        args = parser.parse_args()
        return args


    if __name__ == "__main__":
        main()
    """


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def audit(cli, tmp_path: Path, *launch: str) -> list[tuple[str, str, int]]:
    result = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", "--", *launch, cwd=tmp_path)
    doc = json.loads(result.out)
    return [(f["code"], Path(f["path"]).name, f["line"]) for f in doc["findings"] if f["code"] == "PF206"]


def test_a_deepspeed_launch_of_a_strict_parser_is_flagged_at_parse_args(cli, tmp_path):
    write(tmp_path, "train.py", STRICT)
    assert audit(cli, tmp_path, "deepspeed", "--num_gpus=2", "train.py", "--epochs", "3") == [
        ("PF206", "train.py", 7)]


def test_the_same_script_under_torchrun_or_with_no_local_rank_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", STRICT)
    assert audit(cli, tmp_path, "torchrun", "--nproc_per_node=2", "train.py", "--epochs", "3") == []
    assert audit(cli, tmp_path, "deepspeed", "--no_local_rank", "--num_gpus=2", "train.py") == []


def test_a_parser_that_takes_local_rank_is_quiet_under_deepspeed(cli, tmp_path):
    write(tmp_path, "train.py", STRICT.replace(
        '        args = parser.parse_args()',
        '        parser.add_argument("--local_rank", type=int, default=-1)\n        args = parser.parse_args()'))
    assert audit(cli, tmp_path, "deepspeed", "--num_gpus=2", "train.py") == []
