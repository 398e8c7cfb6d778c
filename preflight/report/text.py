"""The terminal report, ruff-like: a header line, a code frame, evidence, help, a summary.

::

    train.py:12:5: PF101 `losses.append(loss)` keeps every step's autograd graph alive
       |
    11 |     loss = criterion(model(x), y)
    12 |     losses.append(loss)
       |     ^^^^^^^^^^^^^^^^^^^
    13 |     optimizer.step()
       |
       = evidence: line 4: `losses` is created before the loop
       = help: Append `loss.item()` instead (safe fix)

Frames are read back from ``root / finding.path`` (only for files with findings;
a notebook's cell from its JSON), falling back to ``Finding.source_line``.
Columns are characters; the caret line accounts for tabs and wide characters,
and control characters in source or messages are shown as visible symbols.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight.codes import code_sort_key
from preflight.report import fix_note, load_rules, plural, split_cell_path, split_cell_prefix

if TYPE_CHECKING:
    from preflight.diagnostics import Evidence, FileError, Finding
    from preflight.engine import RunResult
    from preflight.rules.base import Rule

MAX_READ_BYTES = 16 * 1024 * 1024
MAX_SPAN_LINES = 4  # longer spans show their first two lines, "...", and the last
TAB = "    "

_SEVERITY_STYLE = {"error": ("1", "31"), "warning": ("1", "33"), "note": ("1", "36")}
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")
# bidirectional overrides and isolates: shown, never obeyed (Trojan Source)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class Style:
    """ANSI styling that is a no-op when colour is off."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, *codes: str) -> str:
        if not self.color or not codes or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"


# -- characters as a terminal shows them ------------------------------------------

def _shown(ch: str) -> str:
    if ch == "\t":
        return TAB
    o = ord(ch)
    if o < 0x20:
        return chr(0x2400 + o)  # control pictures: ␀ .. ␟
    if o == 0x7F:
        return "\u2421"
    if 0x80 <= o < 0xA0 or ch in _BIDI:
        return "\ufffd"
    return ch


def _width(ch: str) -> int:
    """Terminal cells taken by an already-shown character."""
    if ch.isascii():
        return 1
    import unicodedata

    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display(text: str) -> str:
    """``text`` with tabs expanded and control characters made visible."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(_shown(ch) for ch in text)


def display_width(text: str) -> int:
    shown = display(text)
    if shown.isascii():
        return len(shown)
    return sum(_width(ch) for ch in shown)


# -- reading sources back ---------------------------------------------------------

def split_lines(text: str) -> list[str]:
    """Lines as ``ast`` counts them (only ``\\n``, ``\\r\\n`` and ``\\r`` end a line)."""
    lines = _NEWLINE_RE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _decode_python(raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    encoding = "utf-8"
    if b"coding" in b"\n".join(raw.split(b"\n", 2)[:2]):
        # only a PEP 263 cookie in the first two lines names another encoding: tokenize (a
        # measurable import for a one-file check) is loaded for those files alone
        import io
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        except SyntaxError:
            encoding = "utf-8"
    try:
        return raw.decode("utf-8" if encoding == "utf-8-sig" else encoding, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")


class Sources:
    """Lines of the files that have findings, each read at most once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, Optional[list[str]]] = {}
        self._notebooks: dict[str, Optional[list[list[str]]]] = {}

    def _read(self, path: str) -> Optional[bytes]:
        full = self.root / path
        try:
            if full.stat().st_size > MAX_READ_BYTES:
                return None
            from preflight.sources import read_bytes_limited

            return read_bytes_limited(full, MAX_READ_BYTES)
        except OSError:
            return None

    def file_lines(self, path: str) -> Optional[list[str]]:
        if path not in self._files:
            raw = self._read(path)
            self._files[path] = None if raw is None or b"\0" in raw[:8192] else split_lines(
                _decode_python(raw))
        return self._files[path]

    def cell_lines(self, path: str, cell: int) -> Optional[list[str]]:
        """Lines of cell ``cell`` (counting every cell from 1, as the engine does)."""
        if path not in self._notebooks:
            self._notebooks[path] = self._read_notebook(path)
        cells = self._notebooks[path]
        if cells is None or not 1 <= cell <= len(cells):
            return None
        return cells[cell - 1]

    def _read_notebook(self, path: str) -> Optional[list[list[str]]]:
        import json

        raw = self._read(path)
        if raw is None:
            return None
        try:
            doc = json.loads(raw.decode("utf-8-sig", errors="replace"))
        except (ValueError, RecursionError):
            return None
        cells = doc.get("cells") if isinstance(doc, dict) else None
        if not isinstance(cells, list):
            return None
        out: list[list[str]] = []
        for cell in cells:
            src = cell.get("source", "") if isinstance(cell, dict) else ""
            if isinstance(src, list):
                src = "".join(s for s in src if isinstance(s, str))
            # the engine numbers cell lines with str.splitlines(); so do we
            out.append(src.splitlines() if isinstance(src, str) else [])
        return out

    def lines_for(self, f: Finding) -> tuple[list[str], int]:
        """(lines, number of the first one) to draw ``f``'s frame from."""
        if f.cell is not None:
            lines = self.cell_lines(f.path, f.cell)
        else:
            lines = self.file_lines(f.path)
            if (lines is not None and f.source_line and 1 <= f.span.line <= len(lines)
                    and lines[f.span.line - 1] != f.source_line):
                lines = None  # the file changed since it was analysed
        if lines is not None and 1 <= f.span.line <= len(lines):
            return lines, 1
        if f.source_line:
            return [f.source_line], f.span.line
        return [], 1


# -- one finding ----------------------------------------------------------------

def frame(lines: list[str], first_number: int, f: Finding,
          style: Style) -> tuple[list[str], int]:
    """The code frame (gutter, context lines, a caret line under the span) and its gutter width."""
    start, end = f.span.line, max(f.span.end_line, f.span.line)
    last_number = first_number + len(lines) - 1
    if not lines or not first_number <= start <= last_number:
        return [], 0
    end = min(end, last_number)
    span_rows: list[Optional[int]] = list(range(start, end + 1))
    if len(span_rows) > MAX_SPAN_LINES:
        span_rows = [*span_rows[:2], None, span_rows[-1]]
    rows = ([start - 1] if start > first_number else []) + span_rows + (
        [end + 1] if end < last_number else [])
    width = len(str(max(r for r in rows if r is not None)))
    bar = style("|", "1", "34")
    blank = f"{' ' * width} {bar}"
    out = [blank]
    for number in rows:
        if number is None:
            out.append(f"{' ' * width} {style(':', '1', '34')} ...")
            continue
        text = lines[number - first_number]
        out.append(f"{style(str(number).rjust(width), '1', '34')} {bar} {display(text)}".rstrip())
        if number == start:
            col = max(f.span.column, 1)
            stop = f.span.end_column if f.span.end_line == start else len(text) + 1
            pad = display_width(text[: col - 1]) + max(col - 1 - len(text), 0)
            carets = max(display_width(text[col - 1 : max(stop, col) - 1]), 1)
            colour = _SEVERITY_STYLE[f.severity.label]
            out.append(f"{blank} {' ' * pad}{style('^' * carets, *colour)}")
    out.append(blank)
    return out, width


def _evidence_text(ev: Evidence, f: Finding) -> str:
    message = ev.message
    if ev.path is not None and ev.path != f.path:
        where = f"{ev.path}:{ev.line}"
    else:
        cell, message = split_cell_prefix(message)  # notebooks: "[cell 3] ..."
        where = f"line {ev.line}" if cell is None else f"cell {cell}, line {ev.line}"
    return f"{where}: {display(message)}"


def header(f: Finding, style: Style) -> str:
    where = f"{f.path}:" + (f"cell {f.cell}:" if f.cell is not None else "")
    pos = f"{f.span.line}:{f.span.column}:"
    code = style(f.code, *_SEVERITY_STYLE[f.severity.label])
    return f"{style(display(where), '1')}{pos} {code} {display(f.message)}"


def render_finding(f: Finding, sources: Sources, style: Style, show_fixes: bool) -> list[str]:
    lines, first_number = sources.lines_for(f)
    out = [header(f, style)]
    body, width = frame(lines, first_number, f, style)
    out += body
    indent = " " * (width + 1 if body else 2)
    eq = style("=", "1", "34")
    for ev in f.evidence:
        out.append(f"{indent}{eq} {style('evidence', '1')}: {_evidence_text(ev, f)}")
    if f.fix is not None and show_fixes:
        note = fix_note(f.fix.applicability.value)
        out.append(f"{indent}{eq} {style('help', '1', '36')}: {display(f.fix.description)} ({note})")
    return out


# -- the whole run ----------------------------------------------------------------

def render_error(e: FileError, style: Style) -> str:
    """``path:line: error: message``; a message of several lines (a YAML parser's, Hydra's)
    continues on indented lines instead of showing its line breaks as control pictures."""
    first, *more = e.render().replace("\r\n", "\n").rstrip("\n").split("\n")
    rest_lines = "".join(f"\n    {display(line)}".rstrip() for line in more)
    if not style.color:
        return display(first) + rest_lines
    where, _, rest = first.partition(": error: ")
    return f"{style(display(where), '1')}: {style('error', '1', '31')}: {display(rest)}{rest_lines}"


def summary(result: RunResult, show_fixes: bool, style: Style) -> str:
    """One closing line: what was found, what can be fixed, what could not be checked."""
    sentences: list[str] = []
    if result.fixes_applied:
        sentences.append(f"Applied {plural(result.fixes_applied, 'fix', 'fixes')}.")
    files = plural(result.files_checked, "file")
    cached = f", {result.files_cached} cached" if result.files_cached else ""
    n = len(result.findings)
    if n:
        counts = result.counts()
        parts = [plural(counts[label], label) for label in ("error", "warning", "note")
                 if counts[label]]
        text = f"Found {plural(n, 'finding')} ({', '.join(parts)}) in {files}"
        safe = sum(1 for f in result.findings
                   if f.fix is not None and f.fix.applicability.value == "safe")
        unsafe = sum(1 for f in result.findings if f.fix is not None) - safe
        if show_fixes and safe:
            text += f"; {safe} fixable with --fix"
            if unsafe:
                text += f" ({unsafe} more with --unsafe-fixes)"
        elif show_fixes and unsafe:
            text += f"; {unsafe} fixable with --unsafe-fixes"
        sentences.append(style(text + ".", "1"))
    elif result.errors:
        sentences.append(style(f"No findings in {files}{cached}.", "1"))
    elif result.no_python_files:
        # an empty run is not a green one: nothing was checked (exit 0, as ruff does)
        sentences.append(style("No Python files found: nothing was checked.", "1", "33"))
    else:
        sentences.append(style(f"All checks passed ({files}{cached}).", "1", "32"))
    if result.suppressed_by_baseline:
        hidden = plural(result.suppressed_by_baseline, "known finding")
        sentences.append(f"{hidden} hidden by the baseline.")
    if result.errors:
        broken = len({split_cell_path(e.path)[0] for e in result.errors})
        sentences.append(style(f"{plural(broken, 'file')} could not be checked.", "1", "31"))
    return " ".join(sentences)


def statistics_table(result: RunResult, rules: dict[str, type[Rule]]) -> list[str]:
    """``count<TAB>code<TAB>[*] name`` per code, most frequent first ([*]: has a fix)."""
    counts: dict[str, int] = {}
    fixable: set[str] = set()
    for f in result.findings:
        counts[f.code] = counts.get(f.code, 0) + 1
        if f.fix is not None:
            fixable.add(f.code)
    out = []
    for code in sorted(counts, key=lambda c: (-counts[c], code_sort_key(c))):
        rule = rules.get(code)
        mark = "[*]" if code in fixable else "[ ]"
        out.append(f"{counts[code]}\t{code}\t{mark} {rule.name if rule else ''}".rstrip())
    return out


def render_text(
    result: RunResult,
    *,
    root: Path,
    color: bool,
    statistics: bool = False,
    show_fixes: bool = True,
    rules: Optional[dict[str, type[Rule]]] = None,
    show_summary: bool = True,
) -> str:
    style = Style(color)
    out: list[str] = []
    if statistics:
        out += statistics_table(result, load_rules(rules) if result.findings else {})
        if out and result.errors:
            out.append("")
    else:
        sources = Sources(root)
        for f in result.findings:
            out += render_finding(f, sources, style, show_fixes)
            out.append("")
    out += [render_error(e, style) for e in result.errors]
    if show_summary:
        if out and out[-1] != "":
            out.append("")
        out.append(summary(result, show_fixes, style))
    elif out and out[-1] == "":
        out.pop()
    return "".join(line + "\n" for line in out)
