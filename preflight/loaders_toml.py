"""TOML for :mod:`preflight.loaders`: ``tomllib`` (``tomli`` before Python 3.11) for the data,
and a scan of the text for the line of every key.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Optional, Union

from preflight.diagnostics import FileError
from preflight.loaders import KeyPath, LoadedConfig

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_module() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    try:
        import tomli
    except ImportError:
        return None
    return tomli


def _load_toml(text: str, display: str) -> Union[LoadedConfig, FileError]:
    module = _toml_module()
    if module is None:
        return FileError(display, "reading TOML needs Python 3.11+ or the 'tomli' package")
    try:
        data = module.loads(text)
    except module.TOMLDecodeError as exc:
        message = str(getattr(exc, "msg", "") or exc)
        line = getattr(exc, "lineno", None)
        column = getattr(exc, "colno", None)
        found = _TOML_POS.search(message)
        if message.endswith("(at end of document)"):
            message = message[: -len("(at end of document)")].rstrip()
            line = text.count("\n") + 1
        elif found:
            line, column = int(found.group(1)), int(found.group(2))
            message = message[: found.start()]
        elif line is None:
            tail = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
            if tail:
                line, column = int(tail.group(1)), int(tail.group(2))
        return FileError(display, f"invalid TOML: {message}", line=line, column=column)
    return LoadedConfig(display, "toml", _plain(data), _toml_lines(text))


def _plain(value: Any) -> Any:
    """TOML dates and times as ISO strings, so the data stays JSON-compatible."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "isoformat") and not isinstance(value, (str, int, float)):
        return value.isoformat()
    return value


def _toml_key(text: str, i: int) -> tuple[list[str], int]:
    """A (dotted) key starting at ``text[i]``: its parts and the index after it."""
    parts: list[str] = []
    n = len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return parts, i
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            raw = text[i : j + 1]
            try:
                parts.append(json.loads(raw))
            except ValueError:
                parts.append(raw[1:-1])
            i = j + 1
        elif c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            parts.append(text[i + 1 : j])
            i = j + 1
        else:
            m = _BARE_KEY.match(text, i)
            if not m:
                return parts, i
            parts.append(m.group())
            i = m.end()
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == ".":
            i += 1
            continue
        return parts, i


class _TomlValueScan:
    """Tracks multi-line strings and bracket depth across the lines of one value."""

    def __init__(self) -> None:
        self.depth = 0
        self.ml: Optional[str] = None  # '"""' or "'''" while inside a multi-line string

    def busy(self) -> bool:
        return self.depth > 0 or self.ml is not None

    def feed(self, text: str, i: int = 0) -> None:
        n = len(text)
        while i < n:
            if self.ml is not None:
                j = text.find(self.ml, i)
                if j < 0:
                    return
                i = j + 3
                self.ml = None
                continue
            c = text[i]
            if c == "#":
                return
            if text.startswith('"""', i) or text.startswith("'''", i):
                self.ml = text[i : i + 3]
                i += 3
            elif c == '"':
                i += 1
                while i < n and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
                i += 1
            elif c == "'":
                j = text.find("'", i + 1)
                i = n if j < 0 else j + 1
            else:
                if c in "[{":
                    self.depth += 1
                elif c in "]}":
                    self.depth = max(0, self.depth - 1)
                i += 1


def _toml_lines(text: str) -> dict[KeyPath, int]:
    lines: dict[KeyPath, int] = {(): 1}
    table: KeyPath = ()
    aot: dict[KeyPath, int] = {}  # array-of-tables path -> current index
    scan = _TomlValueScan()

    def real(parts: list[str]) -> KeyPath:
        out: KeyPath = ()
        for part in parts:
            out = (*out, part)
            if out in aot:
                out = (*out, aot[out])
        return out

    for number, line in enumerate(text.splitlines(), start=1):
        if scan.busy():
            scan.feed(line)
            continue
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        offset = len(line) - len(stripped)
        if stripped.startswith("[["):
            parts, _ = _toml_key(line, offset + 2)
            if parts:
                base = (*real(parts[:-1]), parts[-1])
                aot[base] = aot.get(base, -1) + 1
                lines.setdefault(base, number)
                table = (*base, aot[base])
                lines[table] = number
            continue
        if stripped.startswith("["):
            parts, _ = _toml_key(line, offset + 1)
            if parts:
                table = real(parts)
                lines[table] = number
            continue
        parts, end = _toml_key(line, offset)
        if not parts or end >= len(line) or line[end] != "=":
            continue
        for k in range(1, len(parts)):
            lines.setdefault((*table, *parts[:k]), number)
        lines[tuple([*table, *parts])] = number
        scan.feed(line, end + 1)
    return lines
