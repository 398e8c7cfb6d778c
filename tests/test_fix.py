"""The fix engine: byte-exact rewrites, safety checks, atomic writes."""

from __future__ import annotations

import codecs
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from preflight.diagnostics import Applicability, Fix, Span
from preflight.engine import Selection, analyse_parsed
from preflight.fix import FixOutcome, apply_fixes, operations, register_operation, write_atomic
from preflight.sources import FileError, SourceText, parse_python, read_source

LEAKY = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "model = nn.Linear(4, 1)  # the model\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "losses = []\n"
    "total = 0.0\n"
    "for x, y in loader:\n"
    "\tout = model(x)\n"
    "\tloss = (out - y).pow(2).mean()  # café\n"
    "\tloss.backward()\n"
    "\topt.step()\n"
    "\tlosses.append(loss)   # keep it\n"
    "\ttotal += loss\n"
    "\tlosses.append((out * 2\n"
    "\t               + 1))\n"
    "print(f\"{total:.4f}\")\n"
)
FIXED = (
    LEAKY.replace("losses.append(loss)   #", "losses.append(loss.detach())   #")
    .replace("total += loss\n", "total += loss.item()\n")
    .replace("\t               + 1))\n", "\t               + 1).detach())\n")
)


def source_of(text: str, *, raw: bytes | None = None, bom: bool = False, encoding: str = "utf-8",
              kind: str = "python", path: str = "t.py") -> SourceText:
    if raw is None:
        raw = (codecs.BOM_UTF8 if bom else b"") + text.encode(encoding)
    return SourceText(path=Path(path), display=path, kind=kind, raw=raw, text=text,
                      encoding=encoding, bom=bom)


def fixes_for(source: SourceText) -> list[Fix]:
    parsed = parse_python(source)
    assert not isinstance(parsed, FileError), parsed
    findings = analyse_parsed(parsed, Selection(codes=("PF101",)))
    return [f.fix for f in findings if f.fix is not None]


def test_applies_every_fix_byte_exact() -> None:
    source = source_of(LEAKY)
    fixes = fixes_for(source)
    assert [f.operation for f in fixes] == ["detach", "item", "detach"]
    outcome = apply_fixes(source, fixes)
    assert isinstance(outcome, FixOutcome)
    assert outcome.skipped == []
    assert outcome.applied == fixes
    assert outcome.text == FIXED


def test_second_run_finds_nothing_to_fix() -> None:
    first = apply_fixes(source_of(LEAKY), fixes_for(source_of(LEAKY)))
    again = source_of(first.text)
    assert fixes_for(again) == []
    assert apply_fixes(again, []).text == first.text


def test_crlf_bom_tabs_and_comments_survive(tmp_path: Path) -> None:
    crlf = LEAKY.replace("\n", "\r\n")
    path = tmp_path / "train.py"
    path.write_bytes(codecs.BOM_UTF8 + crlf.encode("utf-8"))
    source = read_source(path, "train.py", "python")
    assert isinstance(source, SourceText) and source.bom and "\r\n" in source.text
    outcome = apply_fixes(source, fixes_for(source))
    assert outcome.text == FIXED.replace("\n", "\r\n")
    write_atomic(path, source, outcome.text)
    assert path.read_bytes() == codecs.BOM_UTF8 + FIXED.replace("\n", "\r\n").encode("utf-8")


def test_mixed_line_endings_are_kept() -> None:
    text = LEAKY.replace("\topt.step()\n", "\topt.step()\r\n", 1)
    outcome = apply_fixes(source_of(text), fixes_for(source_of(text)))
    assert outcome.text == FIXED.replace("\topt.step()\n", "\topt.step()\r\n", 1)


def test_non_ascii_columns() -> None:
    text = (
        "import torch.nn as nn\n"
        "net = nn.Linear(2, 2)\n"
        "keep = []\n"
        "for x in loader:\n"
        "    étiquette = net(x).sum(); étiquette.backward(); keep.append(étiquette)  # ünïcode\n"
    )
    outcome = apply_fixes(source_of(text), fixes_for(source_of(text)))
    assert outcome.skipped == []
    assert "keep.append(étiquette.detach())  # ünïcode\n" in outcome.text


def test_syntax_error_file_is_untouched() -> None:
    broken = LEAKY + "def oops(:\n"
    fix = Fix("detach", "detach", Span(13, 16, 13, 20))
    outcome = apply_fixes(source_of(broken), [fix])
    assert outcome.text == broken
    assert outcome.applied == []
    assert len(outcome.skipped) == 1 and "does not parse" in outcome.skipped[0][1]


def test_overlapping_and_duplicate_fixes() -> None:
    text = "x = a + b\n"
    whole = Fix("whole", "detach", Span(1, 5, 1, 10))
    inner = Fix("inner", "detach", Span(1, 5, 1, 6))
    same = Fix("whole again", "detach", Span(1, 5, 1, 10))
    outcome = apply_fixes(source_of(text), [whole, inner, same])
    assert outcome.text == "x = (a + b).detach()\n"
    assert outcome.applied == [whole]
    reasons = dict((f.description, r) for f, r in outcome.skipped)
    assert "overlaps" in reasons["inner"]
    assert "already applied" in reasons["whole again"]


def test_adjacent_fixes_both_apply() -> None:
    text = "f(a, b)\n"
    outcome = apply_fixes(source_of(text), [Fix("a", "detach", Span(1, 3, 1, 4)),
                                            Fix("b", "item", Span(1, 6, 1, 7))])
    assert outcome.text == "f(a.detach(), b.item())\n"


def test_unsafe_fixes_need_opt_in() -> None:
    fix = Fix("risky", "detach", Span(1, 5, 1, 6), applicability=Applicability.UNSAFE)
    skipped = apply_fixes(source_of("y = x\n"), [fix])
    assert skipped.text == "y = x\n" and "unsafe" in skipped.skipped[0][1]
    applied = apply_fixes(source_of("y = x\n"), [fix], unsafe=True)
    assert applied.text == "y = x.detach()\n"


def test_unknown_operation_and_stale_position() -> None:
    text = "y = x\n"
    unknown = Fix("?", "frobnicate", Span(1, 5, 1, 6))
    stale = Fix("moved", "detach", Span(1, 4, 1, 6))
    outcome = apply_fixes(source_of(text), [unknown, stale])
    assert outcome.text == text and outcome.applied == []
    reasons = [r for _, r in outcome.skipped]
    assert "unknown fix operation" in reasons[0]
    assert "not at the recorded position" in reasons[1]


@pytest.mark.parametrize(("expr", "expected"), [
    ("x", "x.detach()"),
    ("(x)", "(x).detach()"),
    ("(a + b)", "(a + b).detach()"),
    ("a + b", "(a + b).detach()"),
    ("-x", "(-x).detach()"),
    ("f(x)[0]", "f(x)[0].detach()"),
    ("x if c else y", "(x if c else y).detach()"),
    ("a.b.c", "a.b.c.detach()"),
])
def test_parentheses(expr: str, expected: str) -> None:
    text = f"keep.append({expr})\n"
    inner = expr[1:-1] if expr.startswith("(") and expr.endswith(")") and expr != "(x)" else expr
    start = text.index(inner) + 1
    if expr == "(x)":
        start = text.index("x)") + 1
        inner = "x"
    fix = Fix("d", "detach", Span(1, start, 1, start + len(inner)))
    outcome = apply_fixes(source_of(text), [fix])
    assert outcome.skipped == []
    assert outcome.text == f"keep.append({expected})\n"


def test_multiline_target() -> None:
    text = "keep.append(a +\n    b)  # tail\n"
    fix = Fix("d", "detach", Span(1, 13, 2, 6))
    assert apply_fixes(source_of(text), [fix]).text == "keep.append((a +\n    b).detach())  # tail\n"


def test_result_that_would_not_parse_applies_nothing() -> None:
    import libcst

    @register_operation("test-break")
    def _break(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
        return libcst.Name("class")

    text = "y = x\n"
    outcome = apply_fixes(source_of(text), [Fix("b", "test-break", Span(1, 5, 1, 6))])
    assert outcome.text == text and outcome.applied == []
    assert "would not parse" in outcome.skipped[0][1]
    assert "test-break" in operations()


def test_params_reach_the_operation() -> None:
    import libcst

    seen: list[dict[str, str]] = []

    @register_operation("test-method")
    def _method(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
        seen.append(params)
        assert isinstance(node, libcst.BaseExpression)
        return libcst.Call(func=libcst.Attribute(value=node, attr=libcst.Name(params["name"])))

    fix = Fix("m", "test-method", Span(1, 5, 1, 6), params=(("name", "cpu"),))
    assert apply_fixes(source_of("y = x\n"), [fix]).text == "y = x.cpu()\n"
    assert seen == [{"name": "cpu"}]


def test_notebooks_are_not_rewritten() -> None:
    fix = Fix("d", "detach", Span(1, 1, 1, 2))
    outcome = apply_fixes(source_of("{}", kind="notebook", path="n.ipynb"), [fix])
    assert outcome.text == "{}" and outcome.skipped[0][1].startswith("fixes are applied to Python")


def test_write_atomic_keeps_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text("y = x\n")
    os.chmod(path, 0o640)
    source = read_source(path, "train.py", "python")
    assert isinstance(source, SourceText)
    write_atomic(path, source, "y = x.detach()\n")
    assert path.read_text() == "y = x.detach()\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_write_atomic_keeps_encoding_and_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "legacy.py"
    text = "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\ny = x\n"
    path.write_bytes(text.encode("latin-1"))
    source = read_source(path, "legacy.py", "python")
    assert isinstance(source, SourceText) and source.encoding.lower().replace("_", "-") in (
        "latin-1", "iso-8859-1")
    write_atomic(path, source, text.replace("y = x", "y = x.detach()"))
    assert path.read_bytes() == text.replace("y = x", "y = x.detach()").encode("latin-1")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, source, text + "z = '\u20ac'\n")  # not representable in latin-1
    assert path.read_bytes() == text.replace("y = x", "y = x.detach()").encode("latin-1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["legacy.py"]


def test_write_atomic_follows_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_text("y = x\n")
    link = tmp_path / "link.py"
    try:
        link.symlink_to(real)
    except OSError:
        pytest.skip("symlinks unavailable")
    source = read_source(link, "link.py", "python")
    assert isinstance(source, SourceText)
    write_atomic(link, source, "y = 1\n")
    assert link.is_symlink() and real.read_text() == "y = 1\n"


def test_importing_fix_does_not_import_libcst() -> None:
    code = (
        "import sys\n"
        "import preflight.fix\n"
        "import preflight.rules.code.pf101_retained_graph\n"
        "from preflight.analysis import dataflow, scopes\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
        "from pathlib import Path\n"
        "from preflight.sources import SourceText, parse_python\n"
        "from preflight.engine import analyse_parsed, Selection\n"
        "src = 'import torch.nn as nn\\nnet = nn.Linear(1, 1)\\nkeep = []\\n'"
        " + 'for x in xs:\\n    l = net(x).sum(); l.backward(); keep.append(l)\\n'\n"
        "p = parse_python(SourceText(Path('t.py'), 't.py', 'python', src.encode(), src))\n"
        "assert analyse_parsed(p, Selection(codes=('PF101',)))\n"
        "assert 'libcst' not in sys.modules, 'libcst imported by analysis'\n"
        "assert 'torch' not in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    assert result.returncode == 0, result.stderr
