"""Every command the documentation shows is run, and its output must still match.

A fenced block tagged ``console`` in ``README.md`` or ``docs/*.md`` holds commands
(lines starting with ``$ ``) each followed by its exact expected standard output.
Each block is run by ``bash`` from the root of a scratch copy of this repository
(so a documented ``--fix`` cannot change the real files), with this environment's
``preflight`` first on ``PATH``, ``NO_COLOR=1``, ``PREFLIGHT_NO_CACHE=1`` and
``COLUMNS=80`` (argparse wraps ``--help`` to the terminal width). Only trailing
whitespace is normalised; the exit status is not compared (``check`` exits 1 when
it finds something), but a command that is not found fails the block.

A block that must not run here says why on the line right above its fence::

    <!-- docs-test: skip (installs into .venv; tests/test_readme.py checks its output) -->

Use ``text`` or ``bash`` fences for output that is not deterministic.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import REPO

SKIP_RE = re.compile(r"^<!--\s*docs-test:\s*skip\s*\((?P<reason>[^)]+)\)\s*-->\s*$")
FENCE_RE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")


@dataclass
class Command:
    line: int  # 1-based line of the `$ ` line
    command: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    path: str  # repo-relative
    line: int  # 1-based line of the opening fence
    commands: list[Command]
    skip: str = ""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def parse_blocks(text: str, path: str) -> list[Block]:
    """The ``console`` blocks of a Markdown text, with their skip reasons."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, info, start = m.group("fence"), m.group("info"), i
        body: list[str] = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence[0] * len(fence))
                                      and lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        if info != "console":
            continue
        commands: list[Command] = []
        for offset, line in enumerate(body, start=start + 2):
            if line.startswith("$ "):
                commands.append(Command(offset, line[2:]))
            elif commands:
                commands[-1].expected.append(line)
            elif line.strip():
                raise ValueError(f"{path}:{offset}: a console block must start with a `$ ` command")
        skip = ""
        if start > 0:
            s = SKIP_RE.match(lines[start - 1])
            skip = s.group("reason").strip() if s else ""
        blocks.append(Block(path, start + 1, commands, skip))
    return blocks


def documented_blocks() -> list[Block]:
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    out: list[Block] = []
    for file in files:
        out.extend(parse_blocks(file.read_text(encoding="utf-8"), file.relative_to(REPO).as_posix()))
    return out


def normalise(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def mismatch(block: Block, cmd: Command, actual: str) -> str:
    """A report naming the file and line, or '' when the output matches."""
    want, got = normalise(cmd.expected), normalise(actual.splitlines())
    if want == got:
        return ""
    diff = "\n".join(difflib.unified_diff(want, got, "documented", "actual", lineterm=""))
    return f"{block.path}:{cmd.line}: the output of `{cmd.command}` differs from the docs\n{diff}"


def _scratch_copy(dest: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, timeout=120) if shutil.which("git") else None
    if listed is not None and listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:
        skip = {".git", ".venv", "build", "__pycache__", ".preflight_cache"}
        names = [p.relative_to(REPO).as_posix() for p in REPO.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(REPO).parts)]
    for name in names:
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFLIGHT_")}
    env.update({"PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
                "NO_COLOR": "1", "PREFLIGHT_NO_CACHE": "1", "COLUMNS": "80"})
    env.pop("FORCE_COLOR", None)
    return env


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # a file system without hard links
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """One scratch copy of the repository for the module; each block gets its own tree of hard
    links to it (copying the ~6,000 files took about 3 s a block). A documented command that
    changes a file (``--fix``) replaces it (``os.replace``, preflight/fix.py), so the link is
    replaced and this copy, and the next block's, keep the original."""
    return _scratch_copy(tmp_path_factory.mktemp("docs") / "repo")


BLOCKS = documented_blocks()


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_documented_commands_print_what_the_docs_show(block: Block, tmp_path, request):
    if block.skip:
        pytest.skip(f"{block.where}: {block.skip}")
    assert block.commands, f"{block.where}: a console block without a `$ ` command"
    root = tmp_path / "repo"
    shutil.copytree(request.getfixturevalue("pristine"), root, copy_function=_link_or_copy)
    env = _env()
    problems = []
    for cmd in block.commands:
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd.command], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode not in (126, 127), (
            f"{block.path}:{cmd.line}: `{cmd.command}` could not run: {proc.stderr.strip()}")
        report = mismatch(block, cmd, proc.stdout)
        if report:
            problems.append(report + (f"\n(stderr: {proc.stderr.strip()})" if proc.stderr.strip() else ""))
    assert not problems, "\n\n".join(problems)


def test_every_documentation_page_is_scanned():
    scanned = {b.path for b in BLOCKS}
    assert "docs/getting-started.md" in scanned  # a page this test must never miss
    assert all(not b.skip or len(b.skip) > 10 for b in BLOCKS), "say why a block is skipped"


LINK_RE = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")
CODE_SPAN_RE = re.compile(r"`[^`]*`")


def test_relative_links_point_at_files_that_exist():
    broken = []
    for file in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        in_fence = False
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            if FENCE_RE.match(line):
                in_fence = not in_fence
            if in_fence:
                continue
            for m in LINK_RE.finditer(CODE_SPAN_RE.sub("", line)):  # no link inside `code`
                target = m.group("target").split("#", 1)[0]
                if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # an anchor on the same page, or a URL
                if not (file.parent / target).exists():
                    broken.append(f"{file.relative_to(REPO).as_posix()}:{number}: {target}")
    assert not broken, "links to missing files:\n" + "\n".join(broken)


def _table_keys(markdown: str, heading: str) -> set[str]:
    """The backquoted keys in the first column of the table under ``heading``."""
    section = markdown.split(heading + "\n", 1)[1].split("\n#", 1)[0]
    keys: set[str] = set()
    for row in section.splitlines():
        if row.startswith("| `"):
            keys |= set(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return keys


def test_json_output_doc_lists_every_key(tmp_path):
    """docs/json-output.md names exactly the keys preflight writes."""
    import json

    from conftest import LEAKY, run_subprocess, write

    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                           "execution_count": None, "source": LEAKY.splitlines(keepends=True)}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write(tmp_path / "nb.ipynb", json.dumps(notebook))
    write(tmp_path / "train.py", LEAKY)
    write(tmp_path / "broken.py", "def f(:\n")
    proc = run_subprocess("-m", "preflight", "check", ".", "--no-cache", "--format", "json",
                          cwd=tmp_path)
    doc = json.loads(proc.stdout)
    text = (REPO / "docs" / "json-output.md").read_text(encoding="utf-8")
    finding_keys = set().union(*(f.keys() for f in doc["findings"]))
    assert "cell" in finding_keys and len(doc["findings"]) == 2
    assert _table_keys(text, "### Finding") == finding_keys
    assert _table_keys(text, "### FileError") == set(doc["errors"][0])
    assert _table_keys(text, "### Summary") == set(doc["summary"])
    assert f'"version": {doc["version"]}' in text


def test_a_mismatch_names_the_file_and_line():
    text = ("# Title\n\nSome prose.\n\n```console\n$ echo hello\nhello\n$ printf 'a\\nb\\n'\n"
            "a\nc\n```\n\n<!-- docs-test: skip (needs a GPU machine) -->\n```console\n$ nvidia-smi\n```\n"
            "\n```bash\n$ not-a-console-block\n```\n")
    blocks = parse_blocks(text, "docs/example.md")
    assert [(b.line, b.skip) for b in blocks] == [(5, ""), (14, "needs a GPU machine")]
    first = blocks[0]
    assert [(c.line, c.command, c.expected) for c in first.commands] == [
        (6, "echo hello", ["hello"]), (8, "printf 'a\\nb\\n'", ["a", "c"])]
    assert mismatch(first, first.commands[0], "hello  \n\n") == ""  # trailing whitespace only
    report = mismatch(first, first.commands[1], "a\nb\n")
    assert report.startswith("docs/example.md:8: the output of `printf 'a\\nb\\n'` differs")
    assert "-c" in report and "+b" in report
    with pytest.raises(ValueError, match=r"docs/bad\.md:2: a console block must start"):
        parse_blocks("```console\noutput without a command\n```\n", "docs/bad.md")
