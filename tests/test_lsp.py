"""``preflight lsp`` driven over stdio by pygls's own Language Server client.

The server runs as a subprocess (``python -m preflight lsp``), exactly as an editor
starts it; the test speaks LSP to it through ``pygls.lsp.client.LanguageClient``
and checks what an editor would show: the diagnostics (code, range, severity,
message) for the unsaved buffer, and the code action whose edit, applied to the
buffer, makes the finding go away.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CLEAN, LEAKY, REPO, run_subprocess, write

pytest.importorskip("pygls.lsp.server", reason="needs the lsp extra (pygls 2.x)")
from lsprotocol import types
from pygls.lsp.client import LanguageClient

TIMEOUT = 120.0
BUG = "losses.append(loss)"


class Session:
    """One running server and a client that records what it publishes."""

    def __init__(self, root: Path):
        self.root = root
        self.client = LanguageClient("preflight-tests", "1")
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()
        self.messages: list[str] = []
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def _message(params: types.ShowMessageParams) -> None:
            self.messages.append(params.message)

    async def start(self) -> types.InitializeResult:
        env = dict(os.environ, NO_COLOR="1", PREFLIGHT_NO_CACHE="1")
        await self.client.start_io(sys.executable, "-m", "preflight", "lsp", "--stdio",
                                   cwd=str(self.root), env=env)
        result = await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            process_id=os.getpid(),
            root_uri=self.root.as_uri(),
            capabilities=types.ClientCapabilities(
                general=types.GeneralClientCapabilities(
                    position_encodings=[types.PositionEncodingKind.Utf16])),
        )), TIMEOUT)
        self.client.initialized(types.InitializedParams())
        return result

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), TIMEOUT)

    async def next_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        while True:
            try:
                params = await asyncio.wait_for(self.published.get(), TIMEOUT)
            except asyncio.TimeoutError:
                raise AssertionError(f"no diagnostics for {uri} within {TIMEOUT} s; server "
                                     f"stderr:\n{await self.server_stderr()}") from None
            if params.uri == uri:
                return list(params.diagnostics)

    async def server_stderr(self) -> str:
        server = self.client._server
        if server is None or server.stderr is None:
            return ""
        if server.returncode is None:
            server.kill()
        return (await server.stderr.read()).decode(errors="replace")[-4000:]

    def open(self, uri: str, text: str) -> None:
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                                 text=text)))

    def change(self, uri: str, *changes: Any) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri,
                                                                version=self.versions[uri]),
            content_changes=list(changes)))

    def replace_all(self, uri: str, text: str) -> None:
        self.change(uri, types.TextDocumentContentChangeWholeDocument(text=text))


def run_session(root: Path, body) -> Any:
    async def main() -> Any:
        session = Session(root)
        await session.start()
        try:
            return await body(session)
        finally:
            await session.stop()

    return asyncio.run(main())


# -- applying LSP edits, independently of the server's code ----------------------------

def _offset(text: str, pos: types.Position) -> int:
    """Character offset of an LSP position (UTF-16 code units) in ``text``."""
    lines = text.splitlines(keepends=True)
    offset = sum(len(line) for line in lines[:pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return offset + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return offset + len(line)


def apply_workspace_edit(text: str, uri: str, edit: types.WorkspaceEdit) -> str:
    edits: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri
        edits.extend(change.edits)  # type: ignore[arg-type]
    for uri_key, more in (edit.changes or {}).items():
        assert uri_key == uri
        edits.extend(more)
    assert edits, "the code action carries no edit"
    spans = sorted(((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text)
                    for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def _cli_findings(path: Path, cwd: Path) -> list[dict[str, Any]]:
    proc = run_subprocess("-m", "preflight", "check", "--no-cache", "--format", "json", str(path),
                          cwd=cwd)
    return json.loads(proc.stdout)["findings"]


# -- tests ------------------------------------------------------------------------------

def test_diagnostics_follow_the_unsaved_buffer_and_match_the_cli(tmp_path):
    disk = write(tmp_path / "train.py", CLEAN)  # on disk: correct code
    buggy = write(tmp_path / "cli_copy" / "train.py", LEAKY)
    uri = disk.as_uri()

    async def body(s: Session):
        s.open(uri, LEAKY)  # the editor holds the buggy text, unsaved
        opened = await s.next_diagnostics(uri)
        # an incremental edit: `losses.append(loss)` -> `losses.append(loss.item())`
        line = LEAKY.splitlines().index("        " + BUG)
        at = types.Position(line=line, character=len("        losses.append(loss"))
        s.change(uri, types.TextDocumentContentChangePartial(
            range=types.Range(start=at, end=at), text=".item()"))
        changed = await s.next_diagnostics(uri)
        s.replace_all(uri, LEAKY)
        reopened = await s.next_diagnostics(uri)
        s.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        saved = await s.next_diagnostics(uri)
        return opened, changed, reopened, saved, line

    opened, changed, reopened, saved, line = run_session(tmp_path, body)
    assert [d.code for d in opened] == ["PF101"]
    d = opened[0]
    assert d.source == "preflight"
    assert d.range == types.Range(start=types.Position(line=line, character=8),
                                  end=types.Position(line=line, character=8 + len(BUG)))
    assert d.message.startswith("`loss` is stored in `losses`")
    # the same finding the command line reports for that text
    [cli] = _cli_findings(buggy, tmp_path)
    assert (cli["code"], cli["line"] - 1, cli["column"] - 1, cli["end_column"] - 1) == (
        d.code, d.range.start.line, d.range.start.character, d.range.end.character)
    assert d.severity == {"error": types.DiagnosticSeverity.Error,
                          "warning": types.DiagnosticSeverity.Warning,
                          "note": types.DiagnosticSeverity.Information}[cli["severity"]]
    assert d.message.startswith(cli["message"])
    assert d.related_information and all(r.location.uri == disk.as_uri()
                                         for r in d.related_information)
    assert changed == []  # `.item()` typed into the buffer: the finding is gone
    assert [x.code for x in reopened] == ["PF101"]
    assert [x.code for x in saved] == ["PF101"]  # save re-checks the buffer, not CLEAN on disk


def test_code_action_round_trip(tmp_path):
    path = write(tmp_path / "train.py", LEAKY)
    uri = path.as_uri()

    async def body(s: Session):
        s.open(uri, LEAKY)
        [diag] = await s.next_diagnostics(uri)
        actions = await asyncio.wait_for(s.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diag.range,
                context=types.CodeActionContext(diagnostics=[diag],
                                                only=[types.CodeActionKind.QuickFix]))), TIMEOUT)
        assert actions
        [action] = [a for a in actions if isinstance(a, types.CodeAction)
                    and not a.title.startswith("preflight: disable")]
        assert action.kind == types.CodeActionKind.QuickFix
        assert action.diagnostics and action.diagnostics[0].code == "PF101"
        assert action.edit is not None
        fixed = apply_workspace_edit(LEAKY, uri, action.edit)
        s.replace_all(uri, fixed)  # the editor applied the edit
        after = await s.next_diagnostics(uri)
        # nothing to offer where nothing is wrong
        none = await asyncio.wait_for(s.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
                context=types.CodeActionContext(diagnostics=[]))), TIMEOUT)
        return action, fixed, after, none

    action, fixed, after, none = run_session(tmp_path, body)
    assert "detach" in action.title
    assert fixed == LEAKY.replace(BUG, "losses.append(loss.detach())")
    assert after == []
    assert not none
    # the same text `preflight check --fix` writes
    proc = run_subprocess("-m", "preflight", "check", "--fix", "--no-cache", "train.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert path.read_text(encoding="utf-8") == fixed


def test_rule_link_hover_and_disable_for_this_line(tmp_path):
    path = write(tmp_path / "train.py", LEAKY)
    uri = path.as_uri()
    line = LEAKY.splitlines().index("        " + BUG)

    async def body(s: Session):
        s.open(uri, LEAKY)
        [diag] = await s.next_diagnostics(uri)
        hover = await asyncio.wait_for(s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=10))), TIMEOUT)
        nothing = await asyncio.wait_for(s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=0, character=0))), TIMEOUT)
        actions = await asyncio.wait_for(s.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
                context=types.CodeActionContext(diagnostics=[diag]))), TIMEOUT)
        [disable] = [a for a in actions if isinstance(a, types.CodeAction)
                     and a.title == "preflight: disable PF101 for this line"]
        silenced = apply_workspace_edit(LEAKY, uri, disable.edit)
        s.replace_all(uri, silenced)
        after = await s.next_diagnostics(uri)
        return diag, hover, nothing, silenced, after

    diag, hover, nothing, silenced, after = run_session(tmp_path, body)
    # a link to the rule's documentation (the checkout's docs/rules.md here; the
    # Documentation URL of [project.urls] when the metadata has one)
    assert diag.code_description is not None
    assert diag.code_description.href.endswith("rules.md#pf101-retained-graph")
    assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value.startswith("**PF101 `retained-graph`**")
    assert "## Why it matters" in hover.contents.value
    assert nothing is None
    assert silenced == LEAKY.replace(BUG, BUG + "  # noqa: PF101")
    assert after == []


def test_fix_all_source_action_and_utf16_positions(tmp_path):
    # a character outside the Basic Multilingual Plane before the finding: 2 UTF-16 units
    text = LEAKY.replace("        " + BUG, '        tag = "\U0001F525"; ' + BUG)
    text = text.replace("        loss.backward()", "        total = loss\n        loss.backward()")
    path = write(tmp_path / "train.py", text)
    uri = path.as_uri()
    line_text = next(line for line in text.splitlines() if BUG in line)

    async def body(s: Session):
        s.open(uri, text)
        diags = await s.next_diagnostics(uri)
        actions = await asyncio.wait_for(s.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=0, character=0),
                                  end=types.Position(line=0, character=0)),
                context=types.CodeActionContext(diagnostics=[],
                                                only=[types.CodeActionKind.SourceFixAll]))),
            TIMEOUT)
        return diags, actions

    diags, actions = run_session(tmp_path, body)
    pf101 = [d for d in diags if d.code == "PF101"]
    assert len(pf101) == 1
    start = len(line_text.encode("utf-16-le")) // 2 - len(BUG)
    assert pf101[0].range.start.character == start
    assert pf101[0].range.end.character == start + len(BUG)
    [fix_all] = actions
    assert fix_all.kind == "source.fixAll.preflight"
    fixed = apply_workspace_edit(text, uri, fix_all.edit)
    assert "losses.append(loss.detach())" in fixed
    write(path, fixed)
    remaining = _cli_findings(path, tmp_path)
    assert all(f["fix"] is None or f["fix"]["applicability"] != "safe" for f in remaining)


def test_settings_and_broken_buffers(tmp_path):
    write(tmp_path / "pkg" / "pyproject.toml", '[tool.preflight]\nignore = ["PF101"]\n')
    quiet = write(tmp_path / "pkg" / "train.py", LEAKY).as_uri()
    broken = (tmp_path / "pkg" / "broken.py").as_uri()  # never saved: exists only in the editor
    write(tmp_path / "typo" / "pyproject.toml", '[tool.preflight]\nignor = ["PF101"]\n')
    typo = write(tmp_path / "typo" / "train.py", LEAKY).as_uri()

    async def body(s: Session):
        s.open(quiet, LEAKY)
        ignored = await s.next_diagnostics(quiet)
        s.open(broken, "def train(:\n    pass\n")
        syntax = await s.next_diagnostics(broken)
        s.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=broken)))
        closed = await s.next_diagnostics(broken)
        s.open(typo, LEAKY)
        defaults = await s.next_diagnostics(typo)  # sent after the message
        return ignored, syntax, closed, defaults, list(s.messages)

    ignored, syntax, closed, defaults, messages = run_session(tmp_path, body)
    assert ignored == []  # [tool.preflight] ignore applies in the editor too
    # a broken [tool.preflight]: the user is told, and the defaults apply
    assert [d.code for d in defaults] == ["PF101"]
    assert len(messages) == 1
    assert "unknown key 'ignor' in [tool.preflight]" in messages[0]
    assert messages[0].endswith("using the default settings")
    [d] = syntax
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.range.start.line == 0
    assert d.message.startswith("not analysed: syntax error")
    assert closed == []


def test_without_pygls_the_command_says_what_to_install():
    code = ("import sys; sys.modules['pygls'] = None\n"
            "from preflight.cli import main\n"
            "sys.exit(main(['lsp']))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    assert "pip install 'preflight-audit[lsp]'" in proc.stderr
