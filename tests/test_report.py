"""The reporters as a user sees them: text, JSON, SARIF and GitHub annotations."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

from preflight.diagnostics import (
    Applicability,
    Category,
    Evidence,
    FileError,
    Finding,
    Fix,
    Severity,
    Span,
)
from preflight.engine import RunResult
from preflight.report import FORMATS, render
from preflight.rules.base import Rule

DATA = Path(__file__).resolve().parent / "data"
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")

TRAIN = """\
import torch

losses = []
for x, y in loader:
    loss = criterion(model(x), y)
    losses.append(loss)
    optimizer.step()
"""
LEAK = "    losses.append(loss)"
LEAK_LINE = 6  # 1-based line of LEAK in TRAIN
LEAK_COL = 5  # `losses` starts here
LEAK_END = LEAK_COL + len("losses.append(loss)")  # one past the last character


class FakeRetainedGraph(Rule):
    """A rule with full metadata, never registered: passed to render() via ``rules=``."""

    code = "PF101"
    name = "retained-graph"
    severity = Severity.ERROR
    category = Category.MEMORY
    summary = "A value that carries an autograd graph outlives its training step"
    explanation = """
A tensor that came out of the forward pass holds its whole autograd graph. Keeping
it past the step (in a list, a running sum) keeps every step's graph alive.

Store `loss.item()` or `loss.detach()` instead.
"""
    fixable = True
    bad_examples = ("losses.append(loss)\n",)
    good_examples = ("losses.append(loss.item())\n",)
    url = "https://example.invalid/rules/PF101"


class FakeMissingZeroGrad(Rule):
    code = "PF102"
    name = "missing-zero-grad"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "Gradients accumulate across steps because zero_grad is never called"
    explanation = "The optimizer steps on gradients summed over every step so far."
    bad_examples = ("optimizer.step()\n",)
    good_examples = ("optimizer.zero_grad()\n",)


RULES: dict[str, type[Rule]] = {"PF101": FakeRetainedGraph, "PF102": FakeMissingZeroGrad}


def leak(path: str = "train.py", line: int = LEAK_LINE, *, text: str = LEAK,
         cell: Optional[int] = None, fix: Optional[Fix] = None,
         evidence: Optional[list[Evidence]] = None) -> Finding:
    col = text.index("losses") + 1
    end = col + len("losses.append(loss)")
    return Finding(
        code="PF101",
        severity=Severity.ERROR,
        category=Category.MEMORY,
        path=path,
        span=Span(line, col, line, end),
        message="`losses.append(loss)` keeps every step's autograd graph alive",
        evidence=evidence if evidence is not None else [
            Evidence(line=line - 1, column=5,
                     message="`loss` is computed by `criterion(model(x), y)` and carries a graph"),
            Evidence(line=3, message="`losses` is created before the loop and outlives it"),
        ],
        fix=fix,
        cell=cell,
        source_line=text,
    )


def safe_fix(line: int = LEAK_LINE) -> Fix:
    return Fix("Append `loss.item()` instead", "wrap_item", Span(line, 19, line, 23))


def zero_grad(path: str = "train.py", line: int = 7) -> Finding:
    return Finding("PF102", Severity.WARNING, Category.CORRECTNESS, path, Span(line, 5, line, 21),
                   "`optimizer.step()` runs without `optimizer.zero_grad()` in the loop",
                   source_line="    optimizer.step()")


def run_of(findings: list[Finding], errors: Optional[list[FileError]] = None,
           **counts: int) -> RunResult:
    result = RunResult(findings=list(findings), errors=list(errors or []), **counts)
    result.sort()
    return result


def text_of(result: RunResult, root: Path, **kw: Any) -> str:
    kw.setdefault("color", False)
    return render(result, "text", root=root, rules=RULES, **kw)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    return tmp_path


def notebook(root: Path, name: str = "nb.ipynb") -> Path:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Training\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["import torch\n", "losses = []\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["for x, y in loader:\n", "    loss = criterion(model(x), y)\n",
                    "    losses.append(loss)\n", "    optimizer.step()"]},
    ]
    doc = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = root / name
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


def notebook_leak() -> Finding:
    """PF101 in cell 3 (markdown counts), line 3 of the cell, as the engine reports it."""
    return leak("nb.ipynb", line=3, cell=3, evidence=[
        Evidence(line=2, column=5, message="[cell 3] `loss` carries a graph"),
        Evidence(line=2, column=1, message="[cell 2] `losses` is created here"),
    ])


def caret_columns(out: str, code_line: str) -> tuple[int, int]:
    """(first, last) character offset of the carets, relative to ``code_line``'s text."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith(code_line))
    text_start = lines[at].index(" | ") + 3
    carets = lines[at + 1]
    first = carets.index("^")
    return first - text_start, carets.rindex("^") - text_start


# -- text -----------------------------------------------------------------------

def test_text_header_frame_evidence_and_help(project: Path) -> None:
    out = text_of(run_of([leak(fix=safe_fix())], files_checked=1), project)
    lines = out.splitlines()
    assert lines[0] == (f"train.py:{LEAK_LINE}:{LEAK_COL}: PF101 "
                        "`losses.append(loss)` keeps every step's autograd graph alive")
    # one line of context on each side, with a line-number gutter
    assert "5 |     loss = criterion(model(x), y)" in lines
    assert f"{LEAK_LINE} | {LEAK}" in lines
    assert "7 |     optimizer.step()" in lines
    assert "2 | " not in out and "import torch" not in out
    assert caret_columns(out, LEAK) == (LEAK_COL - 1, LEAK_END - 2)
    assert "  = evidence: line 5: `loss` is computed by `criterion(model(x), y)` and carries a graph" in lines
    assert "  = evidence: line 3: `losses` is created before the loop and outlives it" in lines
    assert "  = help: Append `loss.item()` instead (safe fix)" in lines
    assert lines[-1] == "Found 1 finding (1 error) in 1 file; 1 fixable with --fix."
    assert out.endswith(".\n")


def test_text_unsafe_fix_and_hidden_fixes(project: Path) -> None:
    unsafe = Fix("Use `loss.detach()`", "detach", Span(6, 19, 6, 23), Applicability.UNSAFE)
    result = run_of([leak(fix=unsafe)], files_checked=1)
    out = text_of(result, project)
    assert "= help: Use `loss.detach()` (unsafe fix, use --unsafe-fixes)" in out
    assert out.splitlines()[-1] == "Found 1 finding (1 error) in 1 file; 1 fixable with --unsafe-fixes."
    quiet = text_of(result, project, show_fixes=False)
    assert "= help" not in quiet and "fixable" not in quiet


@pytest.mark.parametrize(("prefix", "shift"), [
    ("    étape = 1; ", 0),  # accented letters: one column each
    ("    损失 = 1; ", 2),  # CJK: two terminal columns each
    ("\t", 3),  # a tab is shown as four spaces
])
def test_text_caret_counts_characters(tmp_path: Path, prefix: str, shift: int) -> None:
    line = prefix + "losses.append(loss)  # é"
    (tmp_path / "t.py").write_text(f"for x in y:\n{line}\n", encoding="utf-8")
    finding = leak("t.py", line=2, text=line, evidence=[])
    col = len(prefix) + 1  # a character column, as the engine reports it
    assert finding.span.column == col
    out = text_of(run_of([finding], files_checked=1), tmp_path)
    assert out.splitlines()[0].startswith(f"t.py:2:{col}: PF101 ")
    shown = line.replace("\t", "    ")
    first, last = caret_columns(out, shown)
    assert (first, last) == (len(prefix) + shift, len(prefix) + shift + len("losses.append(loss)") - 1)


def test_text_multiline_span_underlines_first_line_to_its_end(tmp_path: Path) -> None:
    src = "total = 0\ntotal = total + compute(\n    x,\n)\nprint(total)\n"
    (tmp_path / "m.py").write_text(src, encoding="utf-8")
    finding = Finding("PF101", Severity.ERROR, Category.MEMORY, "m.py", Span(2, 9, 4, 2),
                      "`total` accumulates graphs", source_line="total = total + compute(")
    out = text_of(run_of([finding], files_checked=1), tmp_path)
    assert caret_columns(out, "total = total + compute(") == (8, len("total = total + compute(") - 1)
    for expected in ("1 | total = 0", "3 |     x,", "4 | )", "5 | print(total)"):
        assert expected in out.splitlines()


def test_text_long_span_is_elided(tmp_path: Path) -> None:
    src = "".join(f"x{i} = {i}\n" for i in range(1, 13))
    (tmp_path / "long.py").write_text(src, encoding="utf-8")
    finding = Finding("PF101", Severity.ERROR, Category.MEMORY, "long.py", Span(2, 1, 10, 7),
                      "a long span", source_line="x2 = 2")
    lines = text_of(run_of([finding], files_checked=1), tmp_path).splitlines()
    gutters = [line.split(" | ")[0].strip() for line in lines if " | " in line]
    shown = [g for g in gutters if g]
    assert shown == ["1", "2", "3", "10", "11"]
    assert any(line.endswith(" : ...") for line in lines)


def test_text_falls_back_to_source_line(tmp_path: Path) -> None:
    out = text_of(run_of([leak("gone.py", evidence=[])], files_checked=1), tmp_path)
    assert f"{LEAK_LINE} | {LEAK}" in out.splitlines()
    assert caret_columns(out, LEAK) == (LEAK_COL - 1, LEAK_END - 2)


def test_text_colour_only_when_asked(project: Path) -> None:
    result = run_of([leak(fix=safe_fix())], [FileError("bad.py", "syntax error: x", 1, 4)],
                    files_checked=2)
    plain = text_of(result, project, color=False)
    coloured = text_of(result, project, color=True)
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert ANSI_RE.sub("", coloured) == plain


def test_text_control_characters_are_shown_not_obeyed(tmp_path: Path) -> None:
    line = 'losses.append(loss); s = "\x1b[31mred"'
    (tmp_path / "c.py").write_text(line + "\n", encoding="utf-8")
    finding = leak("c.py", line=1, text=line, evidence=[])
    finding.message = "evil \x1b[2J message"
    out = text_of(run_of([finding], files_checked=1), tmp_path)
    assert "\x1b" not in out
    assert "evil \u241b[2J message" in out


def test_text_summary_all_passed_and_cached(tmp_path: Path) -> None:
    out = text_of(run_of([], files_checked=5), tmp_path)
    assert out == "All checks passed (5 files).\n"
    out = text_of(run_of([], files_checked=1, files_cached=1), tmp_path)
    assert out == "All checks passed (1 file, 1 cached).\n"


def test_text_without_summary(project: Path) -> None:
    assert text_of(run_of([], files_checked=5), project, show_summary=False) == ""
    out = text_of(run_of([leak()], [FileError("bad.py", "cannot read")], files_checked=2), project,
                  show_summary=False)
    assert out.endswith("bad.py: error: cannot read\n") and "Found" not in out
    out = text_of(run_of([leak()], files_checked=1), project, show_summary=False)
    assert out.endswith("  = evidence: line 3: `losses` is created before the loop and outlives it\n")


def test_text_summary_with_file_errors(tmp_path: Path) -> None:
    errors = [FileError("bad.py", "syntax error: invalid syntax", line=3, column=7),
              FileError("bin.py", "binary file (contains NUL bytes); skipped")]
    out = text_of(run_of([], errors, files_checked=4), tmp_path)
    lines = out.splitlines()
    assert "bad.py:3:7: error: syntax error: invalid syntax" in lines
    assert "bin.py: error: binary file (contains NUL bytes); skipped" in lines
    assert lines[-1] == "No findings in 4 files. 2 files could not be checked."


def test_text_summary_counts(project: Path) -> None:
    findings = [leak(fix=safe_fix()), leak(line=3, text="losses = []"), zero_grad()]
    out = text_of(run_of(findings, [FileError("x.py", "cannot read")], files_checked=5,
                         fixes_applied=2), project)
    assert out.splitlines()[-1] == ("Applied 2 fixes. Found 3 findings (2 errors, 1 warning) in 5 files; "
                                    "1 fixable with --fix. 1 file could not be checked.")


def test_text_statistics_table(project: Path) -> None:
    findings = [leak(fix=safe_fix()), leak(line=3, text="losses = []"),
                zero_grad(), zero_grad("b.py"), zero_grad("c.py"),
                Finding("PF999", Severity.NOTE, Category.CONFIG, "d.py", Span(1, 1, 1, 2), "x")]
    out = text_of(run_of(findings, files_checked=4), project, statistics=True)
    lines = out.splitlines()
    assert lines[:3] == ["3\tPF102\t[ ] missing-zero-grad", "2\tPF101\t[*] retained-graph",
                         "1\tPF999\t[ ]"]
    assert "|" not in out  # no code frames
    assert lines[-1].startswith("Found 6 findings")


# -- JSON --------------------------------------------------------------------------

def test_json_contract_and_determinism(project: Path) -> None:
    result = run_of([zero_grad(), leak(fix=safe_fix())],
                    [FileError("bad.py", "syntax error: invalid syntax", 1, 5)],
                    files_checked=3, files_cached=1, fixes_applied=1)
    out = render(result, "json", root=project, color=True)
    assert out.endswith("}\n") and "\x1b" not in out
    assert render(result, "json", root=project, color=False) == out
    doc = json.loads(out)
    assert list(doc) == ["version", "findings", "errors", "summary"]
    assert doc["version"] == 1
    assert [f["code"] for f in doc["findings"]] == ["PF101", "PF102"]  # RunResult order
    first = doc["findings"][0]
    assert first == {
        "code": "PF101", "severity": "error", "category": "memory", "path": "train.py",
        "line": LEAK_LINE, "column": LEAK_COL, "end_line": LEAK_LINE, "end_column": LEAK_END,
        "message": "`losses.append(loss)` keeps every step's autograd graph alive",
        "evidence": [
            {"line": 5, "column": 5,
             "message": "`loss` is computed by `criterion(model(x), y)` and carries a graph"},
            {"line": 3, "column": 1, "message": "`losses` is created before the loop and outlives it"},
        ],
        "fix": {"description": "Append `loss.item()` instead", "applicability": "safe"},
    }
    assert doc["findings"][1]["fix"] is None
    assert doc["errors"] == [{"path": "bad.py", "line": 1, "message": "syntax error: invalid syntax"}]
    assert doc["summary"] == {"files_checked": 3, "files_cached": 1, "findings": 2, "errors": 1,
                              "warnings": 1, "notes": 0, "fixable": 1, "file_errors": 1,
                              "fixes_applied": 1}
    assert all(type(v) is int for v in doc["summary"].values())


def test_json_empty_run(tmp_path: Path) -> None:
    doc = json.loads(render(run_of([], files_checked=2), "json", root=tmp_path, color=False))
    assert doc["findings"] == [] and doc["errors"] == []
    assert doc["summary"]["findings"] == 0 and doc["summary"]["files_checked"] == 2


# -- SARIF -------------------------------------------------------------------------

def sarif_schema() -> dict[str, Any]:
    return json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def validate_sarif(text: str) -> dict[str, Any]:
    from jsonschema.validators import validator_for

    schema = sarif_schema()
    cls = validator_for(schema)
    assert cls.__name__ == "Draft4Validator"
    cls.check_schema(schema)
    doc = json.loads(text)
    errors = sorted(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(doc), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return doc


def sarif_of(result: RunResult, root: Path) -> dict[str, Any]:
    return validate_sarif(render(result, "sarif", root=root, color=False, rules=RULES,
                                 tool_version="1.2.3"))


def test_schema_copy_is_unmodified() -> None:
    source = (DATA / "SOURCE-sarif-schema-2.1.0.md").read_text(encoding="utf-8")
    recorded = re.search(r"sha256:\s*([0-9a-f]{64})", source)
    if recorded is None:
        pytest.skip("SOURCE file records no sha256")
    digest = hashlib.sha256((DATA / "sarif-schema-2.1.0.json").read_bytes()).hexdigest()
    assert digest == recorded.group(1)


def test_sarif_valid_and_carries_what_code_scanning_uses(project: Path) -> None:
    result = run_of([leak(fix=safe_fix()), zero_grad()], files_checked=1)
    doc = sarif_of(result, project)
    assert doc["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "preflight"
    assert driver["version"] == driver["semanticVersion"] == "1.2.3"
    assert [r["id"] for r in driver["rules"]] == ["PF101", "PF102"]
    rule = driver["rules"][0]
    assert rule["name"] == "retained-graph"
    assert rule["shortDescription"]["text"] == FakeRetainedGraph.summary
    assert rule["fullDescription"]["text"].startswith("A tensor that came out of the forward pass")
    assert "Store `loss.item()`" not in rule["fullDescription"]["text"]  # first paragraph only
    assert "Store `loss.item()`" in rule["help"]["text"]
    assert "```python\nlosses.append(loss)\n```" in rule["help"]["markdown"]
    assert rule["helpUri"] == FakeRetainedGraph.url
    assert rule["defaultConfiguration"]["level"] == "error"
    assert rule["properties"]["tags"] == ["memory"]
    assert driver["rules"][1]["defaultConfiguration"]["level"] == "warning"

    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    assert run["invocations"] == [{"executionSuccessful": True}]
    first, second = run["results"]
    assert (first["ruleId"], first["ruleIndex"], first["level"]) == ("PF101", 0, "error")
    assert (second["ruleId"], second["ruleIndex"], second["level"]) == ("PF102", 1, "warning")
    assert first["message"]["text"].startswith("`losses.append(loss)` keeps every step's")
    assert "Append `loss.item()` instead" in first["message"]["text"]
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "train.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": LEAK_LINE, "startColumn": LEAK_COL,
                                  "endLine": LEAK_LINE, "endColumn": LEAK_END}
    assert re.fullmatch(r"[0-9a-f]{16}:1", first["partialFingerprints"]["primaryLocationLineHash"])
    related = first["relatedLocations"]
    assert [r["id"] for r in related] == [1, 2]
    assert related[0]["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 5}
    assert related[0]["message"]["text"].startswith("`loss` is computed")


def test_sarif_fingerprint_survives_moves_and_counts_duplicates(tmp_path: Path) -> None:
    def hashes(*findings: Finding) -> list[str]:
        doc = sarif_of(run_of(list(findings), files_checked=1), tmp_path)
        return [r["partialFingerprints"]["primaryLocationLineHash"] for r in doc["runs"][0]["results"]]

    (here,) = hashes(leak(line=6))
    (moved,) = hashes(leak(line=40))
    (reindented,) = hashes(leak(line=9, text="        losses.append(loss)"))
    assert here == moved == reindented
    assert here.endswith(":1")
    (other_file,) = hashes(leak("other.py"))
    (other_text,) = hashes(leak(text="    losses.append(loss2)"))
    assert len({here, other_file, other_text}) == 3
    twice = hashes(leak(line=6), leak(line=12))
    assert twice[0] == here and twice[1] == here[:-2] + ":2"


def test_sarif_file_errors_and_paths(tmp_path: Path) -> None:
    errors = [FileError("bad dir/bad.py", "syntax error: invalid syntax", 3, 7),
              FileError("nb.ipynb:cell 2", "syntax error: unexpected indent", 1),
              FileError("bin.py", "binary file (contains NUL bytes); skipped")]
    doc = sarif_of(run_of([leak("src/a,b:c.py")], errors, files_checked=4), tmp_path)
    run = doc["runs"][0]
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["error"] * 3
    assert notes[0]["message"]["text"] == "syntax error: invalid syntax"
    loc = notes[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "bad%20dir/bad.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 3, "startColumn": 7}
    nb = next(n for n in notes if "unexpected indent" in n["message"]["text"])
    assert nb["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "nb.ipynb"
    assert "cell 2" in nb["message"]["text"]
    uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "src/a%2Cb%3Ac.py"


def test_sarif_empty_run_and_unknown_rule(tmp_path: Path) -> None:
    doc = sarif_of(run_of([], files_checked=3), tmp_path)
    assert doc["runs"][0]["results"] == [] and doc["runs"][0]["tool"]["driver"]["rules"] == []
    odd = Finding("XX123", Severity.NOTE, Category.CONFIG, "cfg.yaml", Span(2, 1, 2, 5), "odd")
    doc = sarif_of(run_of([odd], files_checked=1), tmp_path)
    (rule,) = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "XX123" and rule["defaultConfiguration"]["level"] == "note"
    assert doc["runs"][0]["results"][0]["level"] == "note"


# -- GitHub ------------------------------------------------------------------------

def github_of(result: RunResult, root: Path) -> list[str]:
    out = render(result, "github", root=root, color=True)
    assert "\x1b" not in out
    return out.splitlines()


def test_github_annotation_per_finding(project: Path) -> None:
    lines = github_of(run_of([leak(fix=safe_fix()), zero_grad(),
                              Finding("PF301", Severity.NOTE, Category.PERFORMANCE, "train.py",
                                      Span(1, 1, 1, 13), "`import torch` is slow")],
                             files_checked=1), project)
    assert lines[0].startswith(
        "::notice file=train.py,line=1,endLine=1,col=1,endColumn=13,title=preflight PF301::")
    assert lines[1] == (
        f"::error file=train.py,line={LEAK_LINE},endLine={LEAK_LINE},col={LEAK_COL},"
        f"endColumn={LEAK_END},title=preflight PF101::"
        "`losses.append(loss)` keeps every step's autograd graph alive"
        "%0Aevidence: line 5: `loss` is computed by `criterion(model(x), y)` and carries a graph"
        "%0Aevidence: line 3: `losses` is created before the loop and outlives it"
        "%0Ahelp: Append `loss.item()` instead (safe fix)")
    assert lines[2].startswith("::warning file=train.py,line=7,endLine=7,col=5,endColumn=21,"
                               "title=preflight PF102::")


def test_github_escaping(tmp_path: Path) -> None:
    finding = Finding("PF101", Severity.ERROR, Category.MEMORY, "dir,x/a:b.py", Span(2, 3, 2, 9),
                      "100% of steps keep a graph\r\nsecond line")
    error = FileError("we,ird:name.py", "cannot read: 50% done\nreally", line=4, column=2)
    lines = github_of(run_of([finding], [error], files_checked=2), tmp_path)
    assert lines == [
        "::error file=dir%2Cx/a%3Ab.py,line=2,endLine=2,col=3,endColumn=9,title=preflight PF101::"
        "100%25 of steps keep a graph%0D%0Asecond line",
        "::error file=we%2Cird%3Aname.py,line=4,col=2,title=preflight::cannot read: 50%25 done%0Areally",
    ]


def test_github_no_findings_is_empty(tmp_path: Path) -> None:
    assert render(run_of([], files_checked=3), "github", root=tmp_path, color=False) == ""


# -- notebooks, in every format ------------------------------------------------------

def test_notebook_text(tmp_path: Path) -> None:
    notebook(tmp_path)
    out = text_of(run_of([notebook_leak()], files_checked=1), tmp_path)
    lines = out.splitlines()
    assert lines[0].startswith(f"nb.ipynb:cell 3:3:{LEAK_COL}: PF101 `losses.append(loss)`")
    assert "2 |     loss = criterion(model(x), y)" in lines  # from the cell, not the JSON
    assert f"3 | {LEAK}" in lines
    assert "4 |     optimizer.step()" in lines
    assert caret_columns(out, LEAK) == (LEAK_COL - 1, LEAK_END - 2)
    assert "  = evidence: cell 3, line 2: `loss` carries a graph" in lines
    assert "  = evidence: cell 2, line 2: `losses` is created here" in lines


def test_notebook_json(tmp_path: Path) -> None:
    doc = json.loads(render(run_of([notebook_leak()], files_checked=1), "json",
                            root=tmp_path, color=False))
    finding = doc["findings"][0]
    assert finding["path"] == "nb.ipynb" and finding["cell"] == 3 and finding["line"] == 3


def test_notebook_sarif(tmp_path: Path) -> None:
    notebook(tmp_path)
    doc = sarif_of(run_of([notebook_leak()], files_checked=1), tmp_path)
    result = doc["runs"][0]["results"][0]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "nb.ipynb"
    assert location["region"]["properties"] == {"cell": 3}
    assert location["region"]["startLine"] == 3
    assert result["message"]["text"].startswith("[cell 3] `losses.append(loss)`")
    related = result["relatedLocations"]
    assert related[1]["physicalLocation"]["region"]["properties"] == {"cell": 2}
    assert related[1]["message"]["text"] == "`losses` is created here"


def test_notebook_github(tmp_path: Path) -> None:
    (line,) = github_of(run_of([notebook_leak()], files_checked=1), tmp_path)
    assert line.startswith("::error file=nb.ipynb,title=preflight PF101::"
                           f"[cell 3, line 3:{LEAK_COL}] `losses.append(loss)`")
    assert "line=" not in line.split("::")[1]  # cell-relative lines are not lines of the .ipynb


# -- the API -------------------------------------------------------------------------

def test_formats_and_unknown_format(tmp_path: Path) -> None:
    assert FORMATS == ("text", "json", "sarif", "github")
    result = run_of([], files_checked=1)
    for fmt in FORMATS:
        assert render(result, fmt, root=tmp_path, color=False, rules=RULES).endswith(
            "\n") or fmt == "github"
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        render(result, "xml", root=tmp_path, color=False)


def test_reporters_import_nothing_heavy(tmp_path: Path) -> None:
    script = f"""
import sys
from pathlib import Path
from preflight.diagnostics import Category, Finding, Severity, Span
from preflight.engine import RunResult
from preflight.report import render
f = Finding("PF101", Severity.ERROR, Category.MEMORY, "a.py", Span(1, 1, 1, 2), "m")
r = RunResult(findings=[f], files_checked=1)
root = Path({str(tmp_path)!r})
for fmt in ("text", "json", "github"):
    render(r, fmt, root=root, color=False)
assert "preflight.registry" not in sys.modules, "rules loaded without need"
render(r, "sarif", root=root, color=False, rules={{}})
heavy = sorted(m for m in ("jsonschema", "yaml", "libcst", "torch") if m in sys.modules)
assert not heavy, heavy
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
