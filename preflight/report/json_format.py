"""The JSON report: a stable, versioned contract that other tools build on.

Shape (``version`` changes only when a key changes meaning or goes away)::

    {"version": 1,
     "findings": [Finding.to_dict(), ...],     # in RunResult order (sorted)
     "errors": [FileError.to_dict(), ...],
     "summary": {"files_checked", "files_cached", "findings", "errors", "warnings",
                 "notes", "fixable", "file_errors", "fixes_applied"}}

``summary.errors/warnings/notes`` count findings by severity; ``file_errors``
counts files (or config values) that could not be checked; ``fixable`` counts
findings that carry a fix, safe or unsafe. Lines and columns are 1-based.
Non-ASCII text is \\u-escaped, so the output is safe on any terminal encoding.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preflight.engine import RunResult

JSON_VERSION = 1


def summary(result: RunResult) -> dict[str, int]:
    counts = result.counts()
    return {
        "files_checked": result.files_checked,
        "files_cached": result.files_cached,
        "findings": len(result.findings),
        "errors": counts["error"],
        "warnings": counts["warning"],
        "notes": counts["note"],
        "fixable": sum(1 for f in result.findings if f.fix is not None),
        "file_errors": len(result.errors),
        "fixes_applied": result.fixes_applied,
    }


def json_document(result: RunResult) -> dict[str, Any]:
    """The JSON report as data (``audit`` adds its plan and estimate before dumping it once)."""
    return {
        "version": JSON_VERSION,
        "findings": [f.to_dict() for f in result.findings],
        "errors": [e.to_dict() for e in result.errors],
        "summary": summary(result),
    }


def render_json(result: RunResult) -> str:
    from preflight.report import json_safe

    return json.dumps(json_safe(json_document(result)), indent=2, sort_keys=False) + "\n"
