"""The files a plan rule reads: the job's scripts and the project modules they import (PF542, PF581, PF610, PF611)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from preflight.plan_rules import PlanContext


def job_files(pctx: PlanContext) -> list[tuple[str, ast.AST]]:
    """The job's scripts and the project modules they import: (display path, tree)."""
    from pathlib import Path

    from preflight.adapters.guarded_helpers import project_modules
    from preflight.local_trees import parse_file
    from preflight.workspace import display_path

    seen: set[str] = set()
    files: list[tuple[str, ast.AST]] = []
    for script in pctx.project.scripts:
        seen.add(str(Path(script.source.path).resolve()))
        files.append((script.source.display, script.tree))
    for script in list(pctx.project.scripts):
        try:
            local = project_modules(script.tree, Path(script.source.path))
        except (OSError, ValueError):
            continue
        for path in local:
            key = str(path.resolve())
            if key in seen:
                continue
            seen.add(key)
            try:
                files.append((display_path(path, pctx.project.root), parse_file(path, 1 << 20)))
            except (SyntaxError, ValueError, OSError, RecursionError):
                continue
    return files
