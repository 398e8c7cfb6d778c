"""Baselines: adopt preflight on a large codebase without fixing everything first.

``--write-baseline FILE`` records today's findings; ``--baseline FILE`` then
reports only new ones. A finding is matched by its code, path and the text of its
line (not the line number, so unrelated edits above it do not resurrect it), with
an occurrence count for identical lines.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Iterable

from preflight._hash import blake2b
from preflight.diagnostics import Finding

VERSION = 1


class BaselineError(Exception):
    pass


def fingerprints(findings: Iterable[Finding]) -> list[tuple[str, str, str]]:
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for f in findings:
        text = " ".join(f.source_line.split())
        base = (f.code, f.path, text)
        seen[base] += 1
        digest = blake2b(f"{text}\0{seen[base]}".encode(), digest_size=8).hexdigest()
        out.append((f.code, f.path, digest))
    return out


def write(path: Path, findings: list[Finding]) -> int:
    entries = sorted({fp for fp in fingerprints(findings)})
    doc = {
        "version": VERSION,
        "tool": "preflight",
        "findings": [{"code": c, "path": p, "fingerprint": h} for c, p, h in entries],
    }
    directory = path.parent if str(path.parent) else Path(".")
    import tempfile  # only when writing a baseline

    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".baseline-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)
    return len(entries)


def load(path: Path) -> set[tuple[str, str, str]]:
    try:
        from preflight.sources import read_text_limited

        doc = json.loads(read_text_limited(path))
    except FileNotFoundError:
        raise BaselineError(f"{path}: error: baseline file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: error: cannot read baseline: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: error: baseline is not valid JSON ({exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: error: not a preflight baseline (version {VERSION} expected)")
    out = set()
    for entry in doc["findings"]:
        try:
            out.add((str(entry["code"]), str(entry["path"]), str(entry["fingerprint"])))
        except (KeyError, TypeError):
            raise BaselineError(f"{path}: error: malformed baseline entry {entry!r}") from None
    return out


def filter_new(findings: list[Finding], known: set[tuple[str, str, str]]) -> tuple[list[Finding], int]:
    kept = []
    dropped = 0
    for f, fp in zip(findings, fingerprints(findings)):
        if fp in known:
            dropped += 1
        else:
            kept.append(f)
    return kept, dropped
