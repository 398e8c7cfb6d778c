"""What the speed work must not change: parents, freed trees, and the findings of shapes
whose analyses were made linear (no timing here; bench/bench_limits.py prints the growth)."""

from __future__ import annotations

import ast
import gc
import textwrap
from pathlib import Path

from preflight.analysis.context import FileContext
from preflight.engine import Selection, analyse_parsed, check_files
from preflight.registry import rule_codes
from preflight.sources import FileError, ParsedPython, SourceText, parse_python
from preflight.workspace import discover


def parse(src: str, name: str = "t.py") -> ParsedPython:
    src = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path(name), display=name, kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def findings(src: str, codes: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    selection = Selection(codes=codes or tuple(rule_codes()))
    return [(f.code, f.span.line) for f in analyse_parsed(parse(src), selection)]


def test_shared_context_and_operator_nodes_get_no_parent() -> None:
    # ast.Load(), ast.Store(), ast.Add() ... are one object shared by every parsed tree:
    # a parent recorded on them would point into whichever file was indexed last
    a = FileContext(parse("x = y + 1\n"))
    b = FileContext(parse("z = w - 2\n"))
    load = a.tree.body[0].value.left.ctx  # type: ignore[attr-defined]
    assert load is b.tree.body[0].value.left.ctx  # type: ignore[attr-defined]
    assert a.parent(load) is None and b.parent(load) is None
    assert not [k for k in vars(load) if not k.startswith("__")]
    assert a.nodes(ast.Load) == [] and a.nodes(ast.Add) == []


def test_parents_ancestors_and_source_order_are_kept() -> None:
    ctx = FileContext(parse("""\
        def f(a):
            for x in a:
                g(x)(h(x))
        b = {k: v for k, v in c}
    """))
    inner = next(c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == "g")
    assert [type(n).__name__ for n in ctx.ancestors(inner)] == [
        "Call", "Expr", "For", "FunctionDef", "Module"]
    assert ctx.parent(ctx.tree) is None
    calls = ctx.nodes(ast.Call)
    assert [(c.lineno, c.col_offset) for c in calls] == sorted((c.lineno, c.col_offset) for c in calls)
    names = ctx.nodes(ast.Name, ast.arg)
    assert [(n.lineno, n.col_offset) for n in names] == sorted((n.lineno, n.col_offset) for n in names)
    assert not hasattr(inner, "_pf_parent")


def test_no_syntax_tree_outlives_its_check(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(textwrap.dedent(f"""\
            import torch
            def speedprobe_{i}(model, loader, optimizer):
                for x, y in loader:
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                    loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
        """))
    found = discover([tmp_path], tmp_path, [], kinds=frozenset({"python"}))
    check_files(found.files, Selection(codes=tuple(rule_codes())), jobs=1)
    assert gc.isenabled()  # the collector is handed back as it was found
    alive = [o for o in gc.get_objects() if isinstance(o, ast.FunctionDef) and o.name.startswith("speedprobe_")]
    assert alive == []


FLAT_UNIT = """\
for step, (x, y) in enumerate(loader):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    if step % 4 == 0:
        optimizer.step()
        optimizer.zero_grad()
"""
HEAD = """\
import torch
import torch.nn.functional as F
model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
"""


def test_each_of_many_top_level_loops_is_reported_once_at_its_backward() -> None:
    # one name bound in every loop of a flat script: its trace is shared, its findings are not
    n = 30
    src = HEAD + FLAT_UNIT * n
    head = HEAD.count("\n")
    lines = [head + 3 + 6 * i for i in range(n)]
    assert [line for code, line in findings(src, ("PF108",))] == lines


def test_a_scaling_in_any_loop_silences_the_shared_trace_as_before() -> None:
    # flow-insensitive: one `loss = loss / 4` anywhere scales every backward of `loss`
    src = HEAD + FLAT_UNIT * 5 + "for x, y in loader:\n    loss = loss / 4\n"
    assert findings(src, ("PF108",)) == []


def test_rebinding_under_many_ifs_keeps_the_finding() -> None:
    body = "".join(f"    if flags[{i}]:\n        loss = loss + model(x).sum()\n"
                   for i in range(200))
    src = (HEAD + "for step, (x, y) in enumerate(loader):\n"
           "    loss = F.cross_entropy(model(x), y)\n" + body
           + "    loss.backward()\n    if step % 8 == 0:\n        optimizer.step()\n"
             "        optimizer.zero_grad()\n")
    backward = src.splitlines().index("    loss.backward()") + 1
    assert findings(src, ("PF108",)) == [("PF108", backward)]


def test_many_loops_in_one_function_each_missing_zero_grad() -> None:
    unit = ("    for x, y in loader:\n        loss = F.cross_entropy(model(x), y)\n"
            "        loss.backward()\n        optimizer.step()\n")
    src = HEAD + "def train():\n" + unit * 20
    found = findings(src, ("PF103",))
    assert len(found) == 20 and len({line for _, line in found}) == 20


def test_comments_are_tokenized_only_for_files_with_findings(monkeypatch) -> None:
    from preflight import sources

    calls: list[int] = []
    real = sources._comments
    monkeypatch.setattr(sources, "_comments", lambda text: calls.append(1) or real(text))
    clean = "import torch  # noqa: F401\nx = torch.zeros(3)\n"
    assert findings(clean) == [] and calls == []
    unscaled = HEAD + FLAT_UNIT.replace("    loss.backward()\n", "    loss.backward()  # noqa: PF108\n")
    assert findings(unscaled, ("PF108",)) == [] and calls == [1]  # still suppressed
    assert findings(HEAD + FLAT_UNIT, ("PF108",)) == [("PF108", HEAD.count("\n") + 3)]


def test_skip_file_directive_is_still_a_comment_only() -> None:
    body = HEAD + FLAT_UNIT
    assert findings("# preflight: skip-file\n" + body, ("PF108",)) == []
    assert findings('s = "# preflight: skip-file"\n' + body, ("PF108",)) == [("PF108", HEAD.count("\n") + 4)]


def test_each_use_sees_the_definition_of_its_own_loop() -> None:
    # `probs` is defined in every loop of a flat script; only the loops whose definition is a
    # softmax feed probabilities to cross_entropy (reaching definitions by bisection)
    good = ("for x, y in loader:\n    out = model(x)\n    probs = out\n"
            "    loss = F.cross_entropy(probs, y)\n    loss.backward()\n    optimizer.step()\n"
            "    optimizer.zero_grad()\n")
    bad = good.replace("probs = out\n", "probs = out.softmax(-1)\n")
    units = [bad if i % 3 == 0 else good for i in range(12)]
    src = HEAD + "".join(units)
    head = HEAD.count("\n")
    expected = [head + 7 * i + 4 for i in range(12) if i % 3 == 0]
    assert [line for code, line in findings(src, ("PF112",))] == expected


def test_parameters_named_as_optimizers_after_the_cheap_test() -> None:
    # the name test first asks whether "opt" occurs at all (every name the pattern matches
    # holds it); the answers stay those of the pattern
    from preflight.analysis.binding_kinds import optimizer_param_name

    for name in ("optimizer", "optim", "opt", "optimizer_D", "optimizerG", "opt_g", "d_optimizer", "gen_opt"):
        assert optimizer_param_name(name), name
    for name in ("options", "opts", "optimize", "optimizer_cfg", "opt_level", "hidden_states", "OPT",
                 "self", "Optimizer", "adam", "sgd_opt_config"):
        assert not optimizer_param_name(name), name
