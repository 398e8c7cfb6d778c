"""Reporters: turn a :class:`~preflight.engine.RunResult` into text for a person or a tool.

``render(result, fmt, ...)`` is the one entry point. Each format lives in its own
module and is imported only when asked for, so a plain ``preflight check`` pays
for the text reporter alone. Reporters never import jsonschema, yaml or libcst.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight import __version__

if TYPE_CHECKING:
    from preflight.engine import RunResult
    from preflight.rules.base import Rule

FORMATS = ("text", "json", "sarif", "github")

__all__ = ["FORMATS", "render"]

_CELL_PATH_RE = re.compile(r"^(?P<path>.*):cell (?P<cell>[0-9]+)$")
_CELL_PREFIX_RE = re.compile(r"^\[cell (?P<cell>[0-9]+)\] ")


def render(
    result: RunResult,
    fmt: str,
    *,
    root: Path,
    color: bool,
    statistics: bool = False,
    show_fixes: bool = True,
    rules: Optional[dict[str, type[Rule]]] = None,
    tool_version: str = __version__,
    show_summary: bool = True,
) -> str:
    """Render ``result`` in format ``fmt`` (one of :data:`FORMATS`).

    ``root`` is the project root that finding paths are relative to: the text
    reporter reads code frames from it and SARIF uses it as ``%SRCROOT%``.
    ``color`` turns on ANSI colours (text only; the caller decides from the TTY
    and ``NO_COLOR``). ``statistics`` swaps the text listing for a per-code
    count table. ``show_fixes`` (text) prints the ``= help:`` fix lines and the
    fixable hint. ``show_summary=False`` (text, for ``--quiet``) drops the closing
    summary line. ``rules`` maps code to rule class; when None the registry is
    loaded, and only by the formats that need rule metadata.
    """
    if fmt == "text":
        from preflight.report import text

        return text.render_text(result, root=root, color=color, statistics=statistics,
                                show_fixes=show_fixes, rules=rules, show_summary=show_summary)
    if fmt == "json":
        from preflight.report import json_format

        return json_format.render_json(result)
    if fmt == "sarif":
        from preflight.report import sarif

        return sarif.render_sarif(result, root=root, rules=rules,
                                  tool_version=tool_version)
    if fmt == "github":
        from preflight.report import github

        return github.render_github(result)
    raise ValueError(f"unknown output format {fmt!r} (expected one of: {', '.join(FORMATS)})")


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _escape_surrogate(m: re.Match) -> str:
    code = ord(m.group())
    # an undecodable byte of a file name (Python's surrogateescape): shown as the byte
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` without lone surrogates: the bytes of a file name that is not UTF-8 become
    ``\\xNN`` (four characters), so JSON and SARIF stay valid Unicode for strict readers."""
    if text.isascii() or not _SURROGATE_RE.search(text):
        return text
    return _SURROGATE_RE.sub(_escape_surrogate, text)


def json_safe(value):
    """``value`` (the dicts, lists and strings a reporter dumps) with :func:`printable` strings."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def render_document(result: RunResult, fmt: str, *, root: Path, rules: Optional[dict[str, type[Rule]]] = None,
                    tool_version: str = __version__) -> dict:
    """The JSON or SARIF report as data, for callers that add to it before dumping it once."""
    if fmt == "json":
        from preflight.report import json_format

        return json_format.json_document(result)
    if fmt == "sarif":
        from preflight.report import sarif

        return sarif.sarif_document(result, root=root, rules=rules, tool_version=tool_version)
    raise ValueError(f"{fmt!r} is not a document format (json, sarif)")


def load_rules(rules: Optional[dict[str, type[Rule]]]) -> dict[str, type[Rule]]:
    """The given rule table, or the registry's (loaded on first use)."""
    if rules is not None:
        return rules
    from preflight.registry import all_rules

    return all_rules()


def split_cell_path(path: str) -> tuple[str, Optional[int]]:
    """``"nb.ipynb:cell 3"`` (how notebook syntax errors name their place) -> (path, 3)."""
    m = _CELL_PATH_RE.match(path)
    if m is None:
        return path, None
    return m.group("path"), int(m.group("cell"))


def split_cell_prefix(message: str) -> tuple[Optional[int], str]:
    """``"[cell 3] x"`` (how notebook evidence names its cell) -> (3, "x")."""
    m = _CELL_PREFIX_RE.match(message)
    if m is None:
        return None, message
    return int(m.group("cell")), message[m.end():]


def plural(n: int, word: str, many: Optional[str] = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def fix_note(applicability: str) -> str:
    """How a user applies a fix of this applicability."""
    return "safe fix" if applicability == "safe" else "unsafe fix, use --unsafe-fixes"
