"""``preflight lsp``: a Language Server that puts preflight's findings in the editor.

It analyses the editor's buffer (the unsaved text, never the file on disk) on
``didOpen``, ``didChange`` and ``didSave`` and publishes the findings as
diagnostics: code, range, severity, message, a link to the rule and the evidence
chain as related information. Findings with a safe fix get a ``quickfix`` code
action, and ``source.fixAll.preflight`` applies every safe fix of the file; the
edits come from the same LibCST machinery as ``preflight check --fix``.

Settings are those of ``preflight check``: the nearest ``pyproject.toml`` with
``[tool.preflight]`` above the file (select, ignore, per-file-ignores, severity,
``# preflight: ignore[...]`` comments). Python files only; notebooks are left to
``preflight check``.

The first half of this module is plain Python (text in, findings and edits out)
and imports nothing optional; :func:`create_server` imports pygls (the ``lsp``
extra, pygls 2.x).
"""

from __future__ import annotations

import argparse
import logging
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence
from urllib.parse import unquote, urlparse

from preflight import __version__
from preflight.diagnostics import Applicability, FileError, Finding, Severity, Span

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

logger = logging.getLogger("preflight.lsp")

SOURCE = "preflight"
FIX_ALL_KIND = "source.fixAll.preflight"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# -- analysis of a buffer (no pygls) -----------------------------------------------------

@dataclass
class Analysis:
    """What preflight found in one version of one buffer."""

    text: str
    root: Path  # the project root: finding paths are relative to it
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    settings_error: Optional[str] = None  # a broken [tool.preflight]: defaults were used


def path_of(uri: str) -> Optional[Path]:
    """The local path of a ``file:`` URI; None for ``untitled:`` and other schemes."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if re.match(r"^/[A-Za-z]:", path):  # file:///C:/x on Windows
        path = path[1:]
    return Path(path)


def analyse_text(text: str, path: Optional[Path], fallback_root: Optional[Path] = None) -> Analysis:
    """Run the selected code rules over ``text`` as if it were the file at ``path``."""
    from preflight.config import SettingsError, load_settings
    from preflight.engine import _per_file_ignored, analyse_parsed
    from preflight.sources import SourceText, parse_python
    from preflight.workspace import display_path

    start = path.parent if path is not None else (fallback_root or Path.cwd())
    settings_error = None
    try:
        settings = load_settings(cwd=start)
        selection = _selection(settings)
    except (SettingsError, ValueError) as exc:
        settings_error = exc.render() if isinstance(exc, SettingsError) else str(exc)
        from preflight.config import Settings

        settings = Settings(root=start)
        selection = _selection(settings)
    analysis = Analysis(text, settings.root, settings_error=settings_error)
    display = display_path(path, settings.root) if path is not None else "untitled.py"
    source = SourceText(path=path or Path(display), display=display, kind="python",
                        raw=text.encode("utf-8", errors="surrogatepass"), text=text)
    parsed = parse_python(source)
    if isinstance(parsed, FileError):
        analysis.errors.append(parsed)
        return analysis
    analysis.findings = [f for f in analyse_parsed(parsed, selection, analysis.errors)
                         if not _per_file_ignored(display, f.code, selection.per_file_ignores)]
    return analysis


def _selection(settings: Any) -> Any:
    """The rules ``preflight check`` would run with these settings and no flags."""
    from preflight.cli import UsageError
    from preflight.runner import _selection as selection_of

    flags = argparse.Namespace(select=None, extend_select=None, ignore=None)
    try:
        return selection_of(settings, flags)
    except UsageError as exc:
        raise ValueError(str(exc)) from None


def is_safe_fix(finding: Finding) -> bool:
    return finding.fix is not None and finding.fix.applicability == Applicability.SAFE


def fixed_text(text: str, findings: Sequence[Finding]) -> Optional[str]:
    """``text`` with the safe fixes of ``findings`` applied; None when none applies."""
    from preflight import fix as fixer
    from preflight.sources import SourceText

    fixes = [f.fix for f in findings if is_safe_fix(f) and f.fix is not None]
    if not fixes:
        return None
    source = SourceText(path=Path("buffer.py"), display="buffer.py", kind="python",
                        raw=b"", text=text)
    outcome = fixer.apply_fixes(source, fixes)
    if not outcome.applied or outcome.text == text:
        return None
    return outcome.text


def minimal_edit(old: str, new: str) -> tuple[int, int, str]:
    """(start, end, replacement): the one character range of ``old`` that becomes ``new``."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old, new[start:end_new]


def lines_of(text: str) -> list[str]:
    """Lines as the Python parser and the LSP count them (``\\n``, ``\\r\\n``, ``\\r``)."""
    return _LINE_BREAK.split(text)


def line_col_at(text: str, offset: int) -> tuple[int, int]:
    """0-based (line, code point column) of a character offset."""
    line = 0
    line_start = 0
    for m in _LINE_BREAK.finditer(text, 0, offset):
        if m.end() > offset:
            break
        line += 1
        line_start = m.end()
    return line, offset - line_start


# -- the server (pygls) ---------------------------------------------------------------------

_SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.NOTE: 3}  # LSP DiagnosticSeverity


def create_server() -> LanguageServer:
    """The preflight Language Server (pygls 2.x)."""
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.workspace.position_codec import ServerTextPosition

    server = LanguageServer(SOURCE, __version__,
                            text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
    analyses: dict[str, Analysis] = {}
    shown_errors: set[str] = set()  # settings errors already shown to the user

    def rule_url(code: str) -> Optional[str]:
        from preflight.docs import rule_help_uri
        from preflight.registry import all_rules

        cls = all_rules().get(code)
        return rule_help_uri(cls, local=True) if cls is not None else None

    def analyse(uri: str, text: str) -> Analysis:
        folder = server.workspace.root_path
        analysis = analyse_text(text, path_of(uri), Path(folder) if folder else None)
        analyses[uri] = analysis
        if analysis.settings_error and analysis.settings_error not in shown_errors:
            shown_errors.add(analysis.settings_error)
            server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning,
                message=f"preflight: {analysis.settings_error}; using the default settings"))
        return analysis

    def position(lines: list[str], line0: int, char: int) -> types.Position:
        codec = server.workspace.position_codec
        if line0 >= len(lines):
            return types.Position(line=len(lines), character=0)
        char = max(0, min(char, len(lines[line0])))
        return codec.position_to_client_units(lines, ServerTextPosition(line0, char))

    def span_range(lines: list[str], span: Span) -> types.Range:
        return types.Range(start=position(lines, span.line - 1, span.column - 1),
                           end=position(lines, span.end_line - 1, span.end_column - 1))

    def diagnostic(uri: str, lines: list[str], f: Finding, root: Path) -> types.Diagnostic:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=uri if ev.path is None or ev.path == f.path else (root / ev.path).as_uri(),
                    range=types.Range(start=position(lines, ev.line - 1, ev.column - 1),
                                      end=position(lines, ev.line - 1, ev.column - 1))),
                message=ev.message)
            for ev in f.evidence
        ]
        url = rule_url(f.code)
        message = f.message
        if f.fix is not None:
            kind = "safe fix" if is_safe_fix(f) else "unsafe fix"
            message += f"\nhelp: {f.fix.description} ({kind})"
        return types.Diagnostic(
            range=span_range(lines, f.span),
            severity=types.DiagnosticSeverity(_SEVERITY[f.severity]),
            code=f.code,
            code_description=types.CodeDescription(href=url) if url else None,
            source=SOURCE,
            message=message,
            related_information=related or None,
            data={"fixable": is_safe_fix(f)},
        )

    def error_diagnostic(lines: list[str], e: FileError) -> types.Diagnostic:
        line0 = (e.line or 1) - 1
        char = (e.column or 1) - 1
        start = position(lines, line0, char)
        end = position(lines, line0, len(lines[line0]) if line0 < len(lines) else 0)
        return types.Diagnostic(range=types.Range(start=start, end=end),
                                severity=types.DiagnosticSeverity.Error, source=SOURCE,
                                message=f"not analysed: {e.message}")

    def refresh(uri: str) -> None:
        document = server.workspace.get_text_document(uri)
        if not _is_python(uri, document.language_id):
            return
        text = document.source
        analysis = analyse(uri, text)
        lines = lines_of(text)
        diagnostics = [diagnostic(uri, lines, f, analysis.root) for f in analysis.findings]
        diagnostics += [error_diagnostic(lines, e) for e in analysis.errors]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=diagnostics))

    def current(uri: str) -> Optional[Analysis]:
        document = server.workspace.get_text_document(uri)
        text = document.source
        analysis = analyses.get(uri)
        if analysis is None or analysis.text != text:
            if not _is_python(uri, document.language_id):
                return None
            analysis = analyse(uri, text)
        return analysis

    def edit_for(uri: str, version: Optional[int], text: str,
                 new_text: str) -> types.WorkspaceEdit:
        start, end, replacement = minimal_edit(text, new_text)
        lines = lines_of(text)
        r = types.Range(start=position(lines, *line_col_at(text, start)),
                        end=position(lines, *line_col_at(text, end)))
        edit = types.TextEdit(range=r, new_text=replacement)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=[edit])])

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        refresh(params.text_document.uri)  # settings may have changed; the buffer is the source

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        analyses.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    def disable_actions(uri: str, version: Optional[int], analysis: Analysis, lines: list[str],
                        wanted: Any) -> list[types.CodeAction]:
        """"preflight: disable PF101 for this line": a ``# noqa: PF101`` on the finding's
        first line (added to a ``# noqa: ...`` already there)."""
        from preflight.suppressions import with_code_disabled

        out: list[types.CodeAction] = []
        done: set[tuple[int, str]] = set()
        source_lines = analysis.text.splitlines(keepends=True)
        for f in analysis.findings:
            r = span_range(lines, f.span)
            key = (f.span.line, f.code)
            if key in done or not _overlaps(r, wanted) or f.span.line > len(source_lines):
                continue
            done.add(key)
            old_line = source_lines[f.span.line - 1]
            new_line = with_code_disabled(old_line, f.code)
            if new_line is None:
                continue
            new_text = "".join(source_lines[:f.span.line - 1]) + new_line + \
                "".join(source_lines[f.span.line:])
            out.append(types.CodeAction(
                title=f"preflight: disable {f.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic(uri, lines, f, analysis.root)],
                edit=edit_for(uri, version, analysis.text, new_text)))
        return out

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: types.HoverParams) -> Optional[types.Hover]:
        """The explanation of the rules whose findings are under the cursor."""
        from preflight.registry import all_rules

        analysis = current(params.text_document.uri)
        if analysis is None:
            return None
        lines = lines_of(analysis.text)
        here = types.Range(start=params.position, end=params.position)
        parts: list[str] = []
        for f in analysis.findings:
            if not _overlaps(span_range(lines, f.span), here):
                continue
            cls = all_rules().get(f.code)
            if cls is None or any(p.startswith(f"**{f.code} ") for p in parts):
                continue
            text = f"**{f.code} `{cls.name}`**: {cls.summary}\n\n{textwrap.dedent(cls.explanation).strip()}"
            url = rule_url(f.code)
            if url:
                text += f"\n\n[{f.code} in the rules reference]({url})"
            parts.append(text)
        if not parts:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value="\n\n---\n\n".join(parts)))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
                                resolve_provider=False),
    )
    def code_action(ls: LanguageServer,
                    params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        uri = params.text_document.uri
        analysis = current(uri)
        if analysis is None:
            return None
        document = server.workspace.get_text_document(uri)
        lines = lines_of(analysis.text)
        # `only` lists kinds or their prefixes ("source" asks for "source.fixAll.preflight")
        wanted = [str(getattr(k, "value", k)) for k in params.context.only or ()]
        actions: list[types.CodeAction] = []
        want_quickfix = not wanted or "quickfix" in wanted
        want_fix_all = not wanted or any(k == FIX_ALL_KIND or FIX_ALL_KIND.startswith(k + ".")
                                         for k in wanted)
        if want_quickfix:
            for f in analysis.findings:
                if not is_safe_fix(f) or f.fix is None:
                    continue
                r = span_range(lines, f.span)
                if not _overlaps(r, params.range):
                    continue
                new_text = fixed_text(analysis.text, [f])
                if new_text is None:
                    continue
                actions.append(types.CodeAction(
                    title=f"{f.fix.description} ({f.code})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic(uri, lines, f, analysis.root)],
                    is_preferred=True,
                    edit=edit_for(uri, document.version, analysis.text, new_text)))
        if want_quickfix:
            actions.extend(disable_actions(uri, document.version, analysis, lines, params.range))
        if want_fix_all:
            new_text = fixed_text(analysis.text, analysis.findings)
            if new_text is not None:
                actions.append(types.CodeAction(
                    title="preflight: apply all safe fixes", kind=FIX_ALL_KIND,
                    edit=edit_for(uri, document.version, analysis.text, new_text)))
        return actions

    return server


def _is_python(uri: str, language_id: Optional[str]) -> bool:
    if language_id:
        return language_id == "python"
    return uri.endswith((".py", ".pyi"))


def _overlaps(a: Any, b: Any) -> bool:
    """LSP ranges overlap or touch (a cursor inside or at the edge of a finding counts)."""
    a_start, a_end = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b_start, b_end = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a_start <= b_end and b_start <= a_end


def serve_stdio() -> None:
    create_server().start_io()
