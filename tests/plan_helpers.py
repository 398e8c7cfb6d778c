"""Helpers for tests that audit a small project of our own and read its TrainingPlan."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any


def write(root: Path, files: dict[str, str]) -> None:
    """Writes each `relative path: dedented text` under `root`, making folders as needed."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))


def plan_of(cli, *args: str, cwd: Path) -> dict:
    """`preflight audit ARGS --emit-plan json` (options after a `--` stay after it), parsed."""
    args_ = list(args)
    cut = args_.index("--") if "--" in args_ else len(args_)
    res = cli("audit", *args_[:cut], "--emit-plan", "json", *args_[cut:], cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def fact(plan: dict, field: str):
    """The fact preflight uses for `field`: the plan's winning fact, or None."""
    from preflight.plan import TrainingPlan

    return TrainingPlan.from_dict(plan).resolve(field)


def winner(plan: dict, field: str) -> Any:
    """The value of the winning fact, or None."""
    best = fact(plan, field)
    return None if best is None else best.value
