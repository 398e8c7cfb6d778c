"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line each.

Escaping follows @actions/core: in the message (data) ``%``, ``\\r`` and ``\\n``
become ``%25``, ``%0D`` and ``%0A``; property values additionally escape ``:``
and ``,`` as ``%3A`` and ``%2C``.

Notebook findings name the ``.ipynb`` file and carry no line/column properties
(their positions are cell-relative, not lines of the JSON file); the cell and
position go into the message instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from preflight.report import fix_note, split_cell_path

if TYPE_CHECKING:
    from preflight.diagnostics import FileError, Finding
    from preflight.engine import RunResult

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, props: list[tuple[str, object]], message: str) -> str:
    rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in props)
    return f"::{kind} {rendered}::{escape_data(message)}"


def finding_line(f: Finding) -> str:
    lines = [f.message]
    for ev in f.evidence:
        where = f"{ev.path}:{ev.line}" if ev.path and ev.path != f.path else f"line {ev.line}"
        lines.append(f"evidence: {where}: {ev.message}")
    if f.fix is not None:
        lines.append(f"help: {f.fix.description} ({fix_note(f.fix.applicability.value)})")
    props: list[tuple[str, object]] = [("file", f.path)]
    if f.cell is None:
        props += [("line", f.span.line), ("endLine", f.span.end_line),
                  ("col", f.span.column), ("endColumn", f.span.end_column)]
    else:
        lines[0] = f"[cell {f.cell}, line {f.span.line}:{f.span.column}] {lines[0]}"
    props.append(("title", f"preflight {f.code}"))
    return command(_COMMAND[f.severity.label], props, "\n".join(lines))


def error_line(e: FileError) -> str:
    path, cell = split_cell_path(e.path)
    props: list[tuple[str, object]] = [("file", path)]
    message = e.message
    if cell is not None:
        where = f"cell {cell}" + (f", line {e.line}" if e.line is not None else "")
        message = f"[{where}] {message}"
    elif e.line is not None:
        props.append(("line", e.line))
        if e.column is not None:
            props.append(("col", e.column))
    props.append(("title", "preflight"))
    return command("error", props, message)


def render_github(result: RunResult) -> str:
    out = [finding_line(f) for f in result.findings]
    out += [error_line(e) for e in result.errors]
    return "".join(line + "\n" for line in out)
