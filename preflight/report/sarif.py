"""SARIF 2.1.0, valid against the OASIS schema and shaped for GitHub code scanning.

One run; ``tool.driver.rules`` holds every rule that has a result (sorted by id)
with the descriptions code scanning shows; results point at repo-relative URIs
under ``%SRCROOT%`` with a full region and carry ``primaryLocationLineHash`` so an
alert survives its line moving. The evidence chain becomes ``relatedLocations``.
Files that could not be checked become tool execution notifications.

Notebook results name the ``.ipynb`` file; their lines are relative to the cell,
which is given in ``region.properties.cell`` and in the message.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import quote

from preflight.codes import sorted_codes
from preflight.report import fix_note, json_safe, load_rules, split_cell_path, split_cell_prefix
from preflight.report.text import Sources

if TYPE_CHECKING:
    from preflight.diagnostics import Evidence, FileError, Finding
    from preflight.engine import RunResult
    from preflight.rules.base import Rule

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
MAX_DESCRIPTION = 1024  # GitHub code scanning's limit for short/full descriptions
_PRECISION = ("very-high", "high", "medium", "low")
_PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}
_SEMVER_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_WINDOWS_ABS_RE = re.compile(r"^[A-Za-z]:/")


# -- rules --------------------------------------------------------------------------

def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def first_paragraph(markdown: str) -> str:
    para = re.split(r"\n\s*\n", markdown.strip(), maxsplit=1)[0]
    return " ".join(para.split())


def _example(code: str) -> str:
    return "```python\n" + textwrap.dedent(code).strip("\n") + "\n```"


def rule_descriptor(code: str, cls: Optional[type[Rule]], level: str) -> dict[str, Any]:
    """A ``reportingDescriptor`` for ``code``; a bare one when the rule is unknown."""
    if cls is None:
        return {
            "id": code,
            "shortDescription": {"text": code},
            "fullDescription": {"text": code},
            "help": {"text": code},
            "defaultConfiguration": {"level": level},
        }
    explanation = cls.explanation.strip()
    markdown = explanation
    if cls.bad_examples:
        markdown += "\n\n## Example\n\n" + _example(cls.bad_examples[0])
    if cls.good_examples:
        markdown += "\n\nUse instead:\n\n" + _example(cls.good_examples[0])
    precision = getattr(cls, "precision", "high")
    descriptor: dict[str, Any] = {
        "id": code,
        "name": cls.name,
        "shortDescription": {"text": _clip(cls.summary or code)},
        "fullDescription": {"text": _clip(first_paragraph(explanation) or cls.summary or code)},
        "help": {"text": explanation or cls.summary or code, "markdown": markdown or code},
        "defaultConfiguration": {"level": cls.severity.label},
        "properties": {
            "tags": [cls.category.value],
            "precision": precision if precision in _PRECISION else "high",
            "problem.severity": _PROBLEM_SEVERITY[cls.severity.label],
        },
    }
    from preflight.docs import rule_help_uri

    uri = rule_help_uri(cls)
    if uri:
        descriptor["helpUri"] = uri
    return descriptor


# -- locations -----------------------------------------------------------------------

def artifact_location(path: str) -> dict[str, Any]:
    """Repo-relative, percent-encoded POSIX URI under %SRCROOT% (absolute: a file URI)."""
    posix = path.replace("\\", "/")
    if posix.startswith("/") or _WINDOWS_ABS_RE.match(posix):
        try:
            return {"uri": Path(path).as_uri()}
        except ValueError:
            pass
    while posix.startswith("./"):
        posix = posix[2:]
    # the file name's own bytes, percent-encoded (a name that is not UTF-8 keeps its bytes)
    try:
        raw = posix.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = posix.encode("utf-8", "surrogatepass")
    return {"uri": quote(raw, safe="/"), "uriBaseId": SRCROOT}


def _region(line: int, column: int, end_line: Optional[int] = None,
            end_column: Optional[int] = None, cell: Optional[int] = None) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(line, 1), "startColumn": max(column, 1)}
    if end_line is not None and end_column is not None:
        region["endLine"] = max(end_line, region["startLine"])
        floor = region["startColumn"] if region["endLine"] == region["startLine"] else 1
        region["endColumn"] = max(end_column, floor)
    if cell is not None:
        region["properties"] = {"cell": cell}
    return region


def _physical(path: str, region: Optional[dict[str, Any]]) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(path)}
    if region is not None:
        physical["region"] = region
    return physical


def _related(index: int, ev: Evidence, f: Finding) -> dict[str, Any]:
    cell, text = split_cell_prefix(ev.message)
    if ev.path is not None and ev.path != f.path:
        cell = None
    return {
        "id": index,
        "physicalLocation": _physical(ev.path or f.path, _region(ev.line, ev.column, cell=cell)),
        "message": {"text": text},
    }


# -- results ------------------------------------------------------------------------

def line_hash(code: str, path: str, line_text: str, occurrence: int) -> str:
    """``primaryLocationLineHash``: stable across line moves and re-indentation."""
    normalised = "".join(line_text.split())
    digest = hashlib.sha256(f"{code}\0{path}\0{normalised}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{digest}:{occurrence}"


def _message(f: Finding) -> str:
    lines = [f.message if f.cell is None else f"[cell {f.cell}] {f.message}"]
    for ev in f.evidence:
        cell, text = split_cell_prefix(ev.message)
        if ev.path is not None and ev.path != f.path:
            where = f"{ev.path}:{ev.line}"
        else:
            where = f"line {ev.line}" if cell is None else f"cell {cell}, line {ev.line}"
        lines.append(f"Evidence: {where}: {text}")
    if f.fix is not None:
        lines.append(f"Fix: {f.fix.description} ({fix_note(f.fix.applicability.value)})")
    return "\n".join(lines)


def result_object(f: Finding, rule_index: int, fingerprint: str) -> dict[str, Any]:
    region = _region(f.span.line, f.span.column, f.span.end_line, f.span.end_column, f.cell)
    out: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": f.severity.label,
        "message": {"text": _message(f)},
        "locations": [{"physicalLocation": _physical(f.path, region)}],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint},
    }
    if f.evidence:
        out["relatedLocations"] = [_related(i, ev, f) for i, ev in enumerate(f.evidence, 1)]
    return out


def notification(e: FileError) -> dict[str, Any]:
    path, cell = split_cell_path(e.path)
    text = e.message if cell is None else f"[cell {cell}] {e.message}"
    region = _region(e.line, e.column or 1, cell=cell) if e.line is not None else None
    return {
        "level": "error",
        "message": {"text": text},
        "locations": [{"physicalLocation": _physical(path, region)}],
    }


# -- the log -------------------------------------------------------------------------

def _information_uri() -> Optional[str]:
    """The project's home page from the installed distribution's ``[project.urls]``
    (Homepage, else Repository, Source or Documentation), if it has one."""
    from preflight.docs import project_urls

    urls = project_urls()
    for label in ("homepage", "home", "repository", "source", "documentation"):
        if urls.get(label):
            return urls[label]
    return None


def _line_from_file(f: Finding, sources: Sources) -> str:
    lines, first = sources.lines_for(f)
    offset = f.span.line - first
    return lines[offset] if 0 <= offset < len(lines) else ""


def root_uri(root: Path) -> str:
    uri = root.resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def render_sarif(
    result: RunResult,
    *,
    root: Path,
    rules: Optional[dict[str, type[Rule]]],
    tool_version: str,
) -> str:
    return json.dumps(json_safe(sarif_document(result, root=root, rules=rules, tool_version=tool_version)), indent=2) + "\n"


def sarif_document(
    result: RunResult,
    *,
    root: Path,
    rules: Optional[dict[str, type[Rule]]],
    tool_version: str,
) -> dict[str, Any]:
    """The SARIF log as data (``audit`` adds run properties before dumping it once)."""
    table = load_rules(rules) if result.findings else {}
    levels: dict[str, str] = {}
    for f in result.findings:
        levels.setdefault(f.code, f.severity.label)
    codes = sorted_codes(levels)
    index = {code: i for i, code in enumerate(codes)}

    sources: Optional[Sources] = None
    seen: dict[tuple[str, str, str], int] = {}
    results = []
    for f in result.findings:
        text = f.source_line
        if not text:  # e.g. a config finding: take the line from the file itself
            sources = sources or Sources(root)
            text = _line_from_file(f, sources)
        key = (f.code, f.path, "".join(text.split()))
        seen[key] = seen.get(key, 0) + 1
        fingerprint = line_hash(f.code, f.path, text, seen[key])
        results.append(result_object(f, index[f.code], fingerprint))

    driver: dict[str, Any] = {"name": "preflight"}
    info = _information_uri()
    if info:
        driver["informationUri"] = info
    driver["version"] = tool_version
    if _SEMVER_RE.match(tool_version):
        driver["semanticVersion"] = tool_version
    driver["rules"] = [rule_descriptor(c, table.get(c), levels[c]) for c in codes]

    invocation: dict[str, Any] = {"executionSuccessful": not result.errors}
    if result.errors:
        invocation["toolExecutionNotifications"] = [notification(e) for e in result.errors]
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": root_uri(root)}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
