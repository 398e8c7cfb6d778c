"""Helpers of the launch-line plan rules PF230-PF232: find the launched script among the
audited ones and a line in it to report on when no launch script gave the launch line."""

from __future__ import annotations

import ast
from pathlib import PurePosixPath
from typing import Any, Optional

_SETUP = ("set_device", "init_process_group", "initialize", "Accelerator")
_PARSE = ("parse_args", "parse_known_args")


def same_script(display: str, launched: str) -> bool:
    a, b = PurePosixPath(display.replace("\\", "/")), PurePosixPath(launched.replace("\\", "/"))
    return a.parts[-len(b.parts):] == tuple(p for p in b.parts if p != ".") or a.name == b.name


def launched_script(pctx: Any, launched: Optional[str]) -> Optional[Any]:
    if not launched:
        return None
    return next((s for s in pctx.scripts if same_script(s.source.display, launched)), None)


def first_call(script: Any, names: tuple[str, ...]) -> Optional[int]:
    best: Optional[tuple[int, int]] = None
    for node in ast.walk(script.tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in names and (best is None or (node.lineno, node.col_offset) < best):
                best = (node.lineno, node.col_offset)
    return best[0] if best is not None else None


def anchor_line(script: Any, prefer_parse: bool = False) -> int:
    """The first call that sets up the distributed job (or parses the command line), else line 1."""
    order = (_PARSE, _SETUP) if prefer_parse else (_SETUP, _PARSE)
    for names in order:
        line = first_call(script, names)
        if line is not None:
            return line
    return 1


def report_at(pctx: Any, rule: Any, script: Any, message: str, evidence: Optional[list] = None,
              prefer_parse: bool = False) -> Any:
    """A finding at the launch line when a launch script gave it, else in the launched script."""
    if pctx.project.launch_at is not None:
        path, line = pctx.project.launch_at
        return pctx.location_finding(rule, path, line, message, evidence=evidence or [])
    if script is not None:
        return pctx.location_finding(rule, script.source.display, anchor_line(script, prefer_parse), message,
                                     evidence=evidence or [])
    if pctx.scripts:
        return pctx.location_finding(rule, pctx.scripts[0].source.display, 1, message, evidence=evidence or [])
    return None
