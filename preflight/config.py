"""Settings from ``[tool.preflight]`` in pyproject.toml (or a file given with --settings).

Every problem (unknown key, wrong type, unknown rule code, bad severity) is a
:class:`SettingsError` naming the file and line; the CLI turns it into one line
and exit code 2.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Optional

from preflight._record import dataclass, field
from preflight.codes import code_matches, sorted_codes
from preflight.diagnostics import Severity


class SettingsError(Exception):
    def __init__(self, message: str, path: Optional[str] = None, line: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def render(self) -> str:
        where = ""
        if self.path:
            where = self.path + (f":{self.line}" if self.line else "") + ": "
        return f"{where}error: {self.message}"


@dataclass
class Settings:
    """Resolved settings. CLI flags are merged on top by the CLI."""

    root: Path
    source: Optional[str] = None  # the file the settings came from
    select: list[str] = field(default_factory=lambda: ["ALL"])
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    fail_on: Severity = Severity.WARNING
    target_gpu: Optional[str] = None
    severity: dict[str, Severity] = field(default_factory=dict)
    online: bool = False
    transformers_version: Optional[str] = None


# key -> (attribute, kind)
_KEYS: dict[str, tuple[str, str]] = {
    "select": ("select", "codes"),
    "ignore": ("ignore", "codes"),
    "extend-select": ("extend_select", "codes"),
    "per-file-ignores": ("per_file_ignores", "per-file"),
    "exclude": ("exclude", "strings"),
    "fail-on": ("fail_on", "severity"),
    "target-gpu": ("target_gpu", "string"),
    "severity": ("severity", "severity-table"),
    "online": ("online", "bool"),
    "transformers-version": ("transformers_version", "string"),
}


def _load_toml(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.9/3.10
        import tomli as tomllib
    return tomllib.loads(text)


def _key_line(text: str, key: str) -> Optional[int]:
    """Line of ``key = ...`` inside the [tool.preflight] tables (best effort)."""
    in_table = False
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = stripped.startswith("[tool.preflight")
            continue
        if in_table and pattern.match(line):
            return number
    return None


def _table_line(text: str) -> Optional[int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("[tool.preflight"):
            return number
    return None


def find_settings(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a [tool.preflight] table, from ``start`` up."""
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if os.path.isfile(candidate):
            try:
                from preflight.sources import read_text_limited

                text = read_text_limited(candidate)
            except (OSError, UnicodeDecodeError):
                continue
            if "[tool.preflight" in text:
                return candidate
    return None


def load_settings(explicit: Optional[Path] = None, cwd: Optional[Path] = None) -> Settings:
    cwd = cwd or Path.cwd()
    path = explicit if explicit is not None else find_settings(cwd)
    if path is None:
        return Settings(root=cwd)
    shown = str(path)
    try:
        from preflight.sources import read_text_limited

        text = read_text_limited(path)
    except FileNotFoundError:
        raise SettingsError("settings file not found", shown) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read settings file: {exc}", shown) from None
    try:
        doc = _load_toml(text)
    except Exception as exc:  # tomllib.TOMLDecodeError: message carries line/column
        line = None
        m = re.search(r"line (\d+)", str(exc))
        if m:
            line = int(m.group(1))
        raise SettingsError(f"invalid TOML: {exc}", shown, line) from None
    if path.name == "pyproject.toml" or "tool" in doc:
        table = doc.get("tool", {}).get("preflight", {})
    else:
        table = doc
    if not isinstance(table, dict):
        raise SettingsError("[tool.preflight] must be a table", shown, _table_line(text))
    settings = Settings(root=path.parent.resolve(), source=shown)
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        if key not in _KEYS:
            import difflib

            hint = difflib.get_close_matches(key, list(_KEYS), n=1)
            suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise SettingsError(f"unknown key '{raw_key}' in [tool.preflight]{suggestion}",
                                shown, _key_line(text, raw_key) or _table_line(text))
        attr, kind = _KEYS[key]
        line = _key_line(text, raw_key)
        setattr(settings, attr, _convert(raw_key, kind, value, shown, line))
    return settings


def _convert(key: str, kind: str, value: Any, path: str, line: Optional[int]) -> Any:
    def fail(expected: str) -> SettingsError:
        return SettingsError(f"'{key}' must be {expected}, got {type(value).__name__} {value!r}", path, line)

    if kind in ("codes", "strings"):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail("a list of strings")
        return [v.strip().upper() if kind == "codes" else v for v in value]
    if kind == "string":
        if not isinstance(value, str):
            raise fail("a string")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise fail("true or false")
        return value
    if kind == "severity":
        if not isinstance(value, str):
            raise fail("one of error, warning, note")
        try:
            return Severity.parse(value)
        except ValueError as exc:
            raise SettingsError(f"'{key}': {exc}", path, line) from None
    if kind == "severity-table":
        if not isinstance(value, dict):
            raise fail("a table of CODE = severity")
        out = {}
        for code, sev in value.items():
            try:
                out[code.upper()] = Severity.parse(str(sev))
            except ValueError as exc:
                raise SettingsError(f"'{key}.{code}': {exc}", path, line) from None
        return out
    if kind == "per-file":
        if not isinstance(value, dict) or not all(
            isinstance(v, (list, str)) for v in value.values()
        ):
            raise fail("a table of \"glob\" = [codes]")
        return {
            pattern: [c.upper() for c in ([codes] if isinstance(codes, str) else codes)]
            for pattern, codes in value.items()
        }
    raise AssertionError(kind)


_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})


def _closest_code(selector: str, available: list[str]) -> Optional[str]:
    """The rule code a mistyped selector most likely meant: a letter typed for a look-alike
    digit first (``PF1O1`` -> ``PF101``), else the closest spelling."""
    head, digits = selector[:2].upper(), selector[2:].upper().translate(_LOOKALIKES)
    fixed = head + digits
    if any(code_matches(code, fixed) for code in available):
        return fixed
    import difflib

    close = difflib.get_close_matches(selector, available, n=1)
    return close[0] if close else None


def resolve_codes(
    select: list[str], ignore: list[str], available: list[str], *, origin: str = "--select",
    ignore_origin: Optional[str] = None, elsewhere: Optional[dict[str, str]] = None,
) -> list[str]:
    """Codes enabled by selection (a complete code names itself only, a shorter selector is a
    prefix: :mod:`preflight.codes`); unknown selectors raise SettingsError.

    ``elsewhere`` maps the codes of rules that exist but that this command does not run (the
    scheduler gate's job rules) to the command that runs them: selecting one says so."""
    def check(selectors: list[str], what: str) -> None:
        for sel in selectors:
            if sel == "ALL":
                continue
            if not any(code_matches(code, sel) for code in available):
                other = sorted_codes(c for c in (elsewhere or {}) if code_matches(c, sel))
                if other:
                    where = (elsewhere or {})[other[0]]
                    named = (f"is a rule of {where}" if other == [sel.upper()] else
                             f"selects only {', '.join(other)}, rules of {where}")
                    raise SettingsError(f"'{sel}' in {what} {named}, which this command does not "
                                        "run; see 'preflight rules'")
                guess = _closest_code(sel, available)
                hint = f" (did you mean {guess}?)" if guess else ""
                raise SettingsError(f"unknown rule code or prefix '{sel}' in {what}{hint}; "
                                    "see 'preflight rules'")

    check(select, origin)
    check(ignore, ignore_origin or origin.replace("select", "ignore"))

    def matches(code: str, selectors: list[str]) -> int:
        best = -1
        for sel in selectors:
            if sel == "ALL":
                best = max(best, 0)
            elif code_matches(code, sel):
                best = max(best, len(sel))
        return best

    out = []
    for code in available:
        s = matches(code, select)
        i = matches(code, ignore)
        # the more specific selector wins, as in ruff
        if s >= 0 and (i < 0 or s > i):
            out.append(code)
    return out
