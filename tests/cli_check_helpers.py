"""What the rule tests that run ``preflight check`` on a project written to ``tmp_path`` share: writing
its files, and the (file name, line) of each finding of one code."""

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
    return [(Path(f["path"]).name, f["line"]) for f in json.loads(result.out)["findings"] if f["code"] == code]
