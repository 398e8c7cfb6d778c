"""Content-hash cache of per-file results.

A file's entry is keyed by preflight's version, the rule selection and the
file's bytes, so any change to one of them misses. Entries are written
atomically; an unreadable or corrupt entry is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Optional

from preflight._hash import blake2b
from preflight.diagnostics import (
    Applicability,
    Category,
    Evidence,
    FileError,
    Finding,
    Fix,
    Severity,
    Span,
)

CACHE_DIR_NAME = ".preflight_cache"
FORMAT = 1


def default_dir(root: Path) -> Optional[str]:
    path = root / CACHE_DIR_NAME
    try:
        path.mkdir(exist_ok=True)
        gitignore = path / ".gitignore"
        if not gitignore.exists():
            gitignore.write_text("# created by preflight\n*\n")
    except OSError:
        return None
    return str(path)


def key(selection: str, display: str, digest: str) -> str:
    text = f"{FORMAT}\0{selection}\0{display}\0{digest}"
    return blake2b(text.encode(), digest_size=16).hexdigest()


def _entry(cache_dir: str, k: str) -> str:
    return os.path.join(cache_dir, k[:2], k + ".json")


def load(cache_dir: str, k: str):
    from preflight.engine import FileResult

    try:
        with open(_entry(cache_dir, k), encoding="utf-8") as fh:
            data = json.load(fh)
        return FileResult(
            display=data["display"],
            findings=[_finding(d) for d in data["findings"]],
            errors=[FileError(**e) for e in data["errors"]],
            skipped=bool(data.get("skipped")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(cache_dir: str, k: str, result) -> None:
    data = {
        "display": result.display,
        "findings": [_dump(f) for f in result.findings],
        "errors": [{"path": e.path, "message": e.message, "line": e.line, "column": e.column}
                   for e in result.errors],
        "skipped": result.skipped,
    }
    path = _entry(cache_dir, k)
    # a private temporary name beside the entry, then an atomic rename (``tempfile`` would
    # cost a one-file check more than the write itself)
    tmp = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _dump(f: Finding) -> dict:
    return {
        "code": f.code, "severity": f.severity.label, "category": f.category.value,
        "path": f.path, "span": [f.span.line, f.span.column, f.span.end_line, f.span.end_column],
        "message": f.message,
        "evidence": [[e.line, e.column, e.message, e.path] for e in f.evidence],
        "fix": None if f.fix is None else {
            "description": f.fix.description, "operation": f.fix.operation,
            "target": [f.fix.target.line, f.fix.target.column, f.fix.target.end_line, f.fix.target.end_column],
            "applicability": f.fix.applicability.value, "params": [list(p) for p in f.fix.params],
        },
        "cell": f.cell, "source_line": f.source_line, "analysed_lines": list(f.analysed_lines),
    }


def _finding(d: dict) -> Finding:
    fix = d["fix"]
    return Finding(
        code=d["code"], severity=Severity.parse(d["severity"]), category=Category(d["category"]),
        path=d["path"], span=Span(*d["span"]), message=d["message"],
        evidence=[Evidence(line=e[0], column=e[1], message=e[2], path=e[3]) for e in d["evidence"]],
        fix=None if fix is None else Fix(
            description=fix["description"], operation=fix["operation"], target=Span(*fix["target"]),
            applicability=Applicability(fix["applicability"]),
            params=tuple((p[0], p[1]) for p in fix["params"])),
        cell=d["cell"], source_line=d["source_line"], analysed_lines=tuple(d["analysed_lines"]),
    )
