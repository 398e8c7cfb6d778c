"""``analysis.syntax.walk`` visits exactly what ``ast.walk`` visits, in the same order: the rules
that use it (PF402, PF422, PF427, PF430, PF432) depend on that order (a later assignment of a
name replaces an earlier one; the first of two calls on one line wins)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from preflight.analysis.syntax import walk

_FEATURES = '''
import torch as t, os.path
from . import x as y
@dec(a=1)
async def f(a: int = 1, /, b=2, *args, c: "s" = 3, **kw) -> None:
    global g
    async with t.no_grad() as (m, n):
        async for i in range(3):
            x: int = 1
            x += -i ** 2 if i else ~i
            del x
    try:
        pass
    except (ValueError, KeyError) as e:
        raise RuntimeError(f"{e!r:>{10}} {a=}") from e
    finally:
        assert a, "m"
    lam = lambda q, *r: [z for z in q if z > 1 < 2 or not z]
    return {k: v for k, v in {}.items()}, {s for s in ()}, (g for g in []), b"x", ..., a[1:2:3], *args
class C(Base, metaclass=M):
    z = yield_ = None
    def m(self):
        nonlocal_ = (yield), (yield from [])
        while True:
            break
        else:
            continue
'''

_MATCH = '''
match p:
    case [1, *rest] | {"k": v, **kw} if v:
        pass
    case Point(x=0, y=_) as pt:
        pass
    case None | "s" | -1 | 1 + 2j:
        pass
'''


def _same(tree: ast.AST) -> None:
    expected = list(ast.walk(tree))
    got = walk(tree)
    assert len(got) == len(expected)
    assert all(a is b for a, b in zip(got, expected))


def test_every_syntax_feature_in_ast_walk_order() -> None:
    _same(ast.parse(_FEATURES))
    if sys.version_info >= (3, 10):
        _same(ast.parse(_MATCH))
    if sys.version_info >= (3, 12):
        _same(ast.parse("type Alias[T: int, *Ts, **P] = list[T]\ndef g[U](u: U) -> U: ...\n"))


@pytest.mark.parametrize("package", ["preflight/analysis", "preflight/rules/code"])
def test_this_projects_sources_in_ast_walk_order(package: str) -> None:
    root = Path(__file__).resolve().parents[1] / package
    files = sorted(root.glob("*.py"))
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        _same(tree)
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            _same(fn)  # a subtree, as the rules walk it


def _statements_in_position_order(src: str) -> None:
    # the node index hands out statements without sorting them: its pre-order walk must
    # already give them by (line, column), for every statement type
    from preflight.analysis.context import FileContext, _sort
    from preflight.sources import SourceText, parse_python

    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=src.encode(), text=src))
    ctx = FileContext(parsed)  # type: ignore[arg-type]
    kinds = {type(n) for n in ast.walk(ctx.tree) if isinstance(n, ast.stmt)}
    assert kinds
    for kind in kinds:
        got = ctx.nodes(kind)
        expected = list(got)
        _sort(expected)
        assert [id(n) for n in got] == [id(n) for n in expected], kind.__name__


_ORDER = '''
@dec(lambda: 0)
@other
def f(a=[x for x in y]):
    x = 1; y = 2
    if a:
        b = 3
    elif c:
        d = 4
    else:
        e = 5
    try:
        g = 6
    except E:
        h = 7
    else:
        i = 8
    finally:
        j = 9
    for k in z:
        l = 10
    else:
        m = 11
    class K:
        @property
        def p(self): return 1
        q = 2
    with o: r = 3
    return {s: t for s in u}
w = 1
'''


def test_statements_come_out_of_the_index_in_position_order() -> None:
    _statements_in_position_order(_ORDER)
    _statements_in_position_order(_FEATURES)
    if sys.version_info >= (3, 10):
        _statements_in_position_order(_MATCH)
    for package in ("preflight/analysis", "preflight/rules/code", "preflight/estimate"):
        for path in sorted((Path(__file__).resolve().parents[1] / package).glob("*.py")):
            _statements_in_position_order(path.read_text(encoding="utf-8"))


def _selection_and_mixed_queries_agree(source: str) -> None:
    from preflight.analysis.context import FileContext
    from preflight.sources import SourceText, parse_python

    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=source.encode(), text=source))
    assert not isinstance(parsed, Exception)
    fresh = FileContext(parsed)  # nothing sorted yet: select sorts only what it keeps
    full = FileContext(parsed)
    for kind, keep in ((ast.Name, lambda n: not isinstance(n.ctx, ast.Load)),
                       (ast.Attribute, lambda a: a.attr in ("grad", "requires_grad", "ctx")),
                       (ast.Call, lambda c: isinstance(c.func, ast.Attribute)),
                       (ast.Assign, lambda a: len(a.targets) == 1)):
        assert fresh.select(kind, keep) == [n for n in full.nodes(kind) if keep(n)]
        assert full.select(kind, keep) == [n for n in full.nodes(kind) if keep(n)]  # sorted by now
    # several kinds: the concatenation sorted by position (stable), sorted or not
    for kinds in ((ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete), (ast.Assign, ast.withitem),
                  (ast.Name, ast.arg)):
        expected = sorted((n for k in kinds for n in full.nodes(k)),
                          key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        assert FileContext(parsed).nodes(*kinds) == expected


def test_selected_nodes_are_the_full_lists_filtered() -> None:
    # ``ctx.select`` filters the unsorted index and sorts what it keeps: the same nodes in the
    # same order as filtering ``ctx.nodes``; a query of several kinds of which one alone has
    # nodes skips its sort and still gives source order
    _selection_and_mixed_queries_agree(_ORDER)
    _selection_and_mixed_queries_agree(_FEATURES)
    _selection_and_mixed_queries_agree("x = 1\ny = 2\n")  # Assign alone among four kinds
    for package in ("preflight/analysis", "preflight/rules/code"):
        for path in sorted((Path(__file__).resolve().parents[1] / package).glob("*.py"))[:40]:
            _selection_and_mixed_queries_agree(path.read_text(encoding="utf-8"))


_LOADER_SHAPES = '''
import torch
from torch.utils.data import DataLoader
from accelerate import Accelerator
accelerator = Accelerator()
train_loader = DataLoader(ds, batch_size=8)
eval_loader = DataLoader(ds2)
self.val_loader = DataLoader(ds3)
wrapped = DataLoader(train_loader.dataset)
run(epochs=3, data=make(eval_loader))
get(self.val_loader)(x)
f(lambda: train_loader)
g(*[train_loader])
h(**{"a": other})
model, opt = accelerator.prepare(model, opt)
for batch in train_loader:
    loss = model(batch)
    accelerator.backward(loss)
'''


def _handed_by_walking(ctx, scopes, loaders):
    # the former PF402 search: every argument of every call that is no loader constructor or
    # wrapper, walked whole
    from preflight.rules._pf4_support import LOADER_WRAPPERS, target_text

    handed = set()
    for call in ctx.nodes(ast.Call):
        qual = scopes.imports.qualify(call.func) or ""
        if qual in LOADER_WRAPPERS or qual.endswith("DataLoader"):
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for node in ast.walk(arg):
                text = target_text(node)
                if text in loaders:
                    handed.add(text)
    return handed


def test_pf402_finds_the_loaders_handed_to_calls_as_a_walk_of_every_argument_does() -> None:
    from preflight.analysis.context import FileContext
    from preflight.analysis.scopes import scope_index
    from preflight.rules.code.pf402_unprepared_train_loader import _handed_to_calls
    from preflight.sources import SourceText, parse_python

    sources = [_LOADER_SHAPES, _FEATURES]
    root = Path(__file__).resolve().parents[1]
    sources += [p.read_text(encoding="utf-8") for p in sorted((root / "preflight/rules/code").glob("_pf4*_examples.py"))]
    for source in sources:
        parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                         raw=source.encode(), text=source))
        assert not isinstance(parsed, Exception)
        ctx = FileContext(parsed)
        scopes = scope_index(ctx)
        names = {n.id for n in ctx.nodes(ast.Name)} | {
            f"{a.value.id}.{a.attr}" for a in ctx.nodes(ast.Attribute) if isinstance(a.value, ast.Name)}
        loaders = {n: [] for n in names}  # every name and self.x of the file counts as a loader here
        assert _handed_to_calls(ctx, scopes, loaders) == _handed_by_walking(ctx, scopes, loaders)
    ctx = FileContext(parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                              raw=_LOADER_SHAPES.encode(), text=_LOADER_SHAPES)))
    loaders = {"train_loader": [], "eval_loader": [], "self.val_loader": [], "other": []}
    assert _handed_to_calls(ctx, scope_index(ctx), loaders) == {"train_loader", "eval_loader",
                                                                 "self.val_loader", "other"}
    only_built = "from torch.utils.data import DataLoader\nx = DataLoader(loader.dataset)\n"
    ctx = FileContext(parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                              raw=only_built.encode(), text=only_built)))
    assert _handed_to_calls(ctx, scope_index(ctx), {"loader": []}) == set()


def test_pf470_credits_scheduler_assignments_to_every_function_around_them() -> None:
    from preflight.analysis.context import FileContext
    from preflight.analysis.scopes import scope_index
    from preflight.rules._pf4_support import target_text
    from preflight.rules.code.pf470_scheduler_stepped_per_batch_and_per_epoch import (
        _is_scheduler_assign,
        _scheduler_targets,
    )
    from preflight.sources import SourceText, parse_python

    source = '''
def main():
    sched = StepLR(opt, 3)
    def inner():
        self.warm = get_linear_schedule_with_warmup(opt, 10, 100)
    class K:
        def m(self):
            other = OneCycleLR(opt, 1.0, 100)
top = CosineAnnealingLR(opt, 10)
'''
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=source.encode(), text=source))
    ctx = FileContext(parsed)
    scopes = scope_index(ctx)
    by_name = {fn.name: fn for fn in scopes.functions.values()}
    for fn in scopes.functions.values():  # as a walk of the function's whole subtree finds them
        walked = {t for n in ast.walk(fn.node) if isinstance(n, ast.Assign) and _is_scheduler_assign(n)
                  for t in map(target_text, n.targets) if t}
        assert _scheduler_targets(ctx, fn) == walked
    assert _scheduler_targets(ctx, by_name["main"]) == {"sched", "self.warm", "other"}
    assert _scheduler_targets(ctx, by_name["<module>"]) == {"sched", "self.warm", "other", "top"}
    assert _scheduler_targets(ctx, by_name["m"]) == {"other"}


def test_pf422_scope_members_are_what_a_walk_of_the_function_finds_in_its_order() -> None:
    # PF422 used to walk each function it looked at; it now reads the file's assignments and
    # calls by their enclosing functions, ordered by depth then position, which is ast.walk's
    # order for statements (its alias propagation depends on that order)
    from preflight.analysis.context import FileContext
    from preflight.rules.code.pf422_fp16_weights_with_grad_scaling import _Scope
    from preflight.sources import SourceText, parse_python

    root = Path(__file__).resolve().parents[1]
    sources = [_FEATURES, _ORDER, _LOADER_SHAPES]
    sources += [p.read_text(encoding="utf-8") for p in sorted((root / "preflight/analysis").glob("*.py"))[:25]]
    sources += [p.read_text(encoding="utf-8") for p in sorted((root / "examples").rglob("*.py"))]
    for source in sources:
        parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                         raw=source.encode(), text=source))
        assert not isinstance(parsed, Exception)
        ctx = FileContext(parsed)
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            scope = _Scope(ctx, fn)
            walked = list(ast.walk(fn))
            assert scope._assigns == [n for n in walked if isinstance(n, ast.Assign) and len(n.targets) == 1
                                      and isinstance(n.targets[0], ast.Name)]
            assert set(map(id, scope._calls)) == {id(n) for n in walked if isinstance(n, ast.Call) and isinstance(
                n.func, ast.Attribute) and n.func.attr in ("parameters", "requires_grad_")}


def test_walk_order_sorts_nodes_as_ast_walk_visits_them() -> None:
    # ctx.walk_order gives a few nodes of a large function in ast.walk's order (PF430 reads the
    # first of a scheduler's steps that way), including the shapes where breadth-first field
    # order differs from position: dict keys before values, decorators after the body, keywords
    # after a later starred argument
    import random

    from preflight.analysis.context import FileContext
    from preflight.sources import SourceText, parse_python

    odd = '''
def f():
    d = {a.step(): b.step(), c.step(): d.step()}
    @dec.step()
    def g(x=h.step(), *, y=k.step()):
        return m.step()
    call(p.step(), key=q.step(), *r.step())
    s.step() if t.step() else u.step()
'''
    root = Path(__file__).resolve().parents[1]
    rng = random.Random(7)
    for source in [odd, _FEATURES, _ORDER, *(p.read_text(encoding="utf-8")
                                               for p in sorted((root / "preflight/rules/code").glob("pf4*.py"))[:15])]:
        parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                         raw=source.encode(), text=source))
        assert not isinstance(parsed, Exception)
        ctx = FileContext(parsed)
        for fn in [ctx.tree, *ctx.nodes(ast.FunctionDef)]:
            walked = [n for n in ast.walk(fn) if isinstance(n, (ast.Call, ast.Assign, ast.Name))]
            sample = rng.sample(walked, min(12, len(walked)))
            assert ctx.walk_order(sample, fn) == [n for n in walked if any(n is s for s in sample)]
            assert all(ctx.under(n, fn) for n in sample)
    ctx = FileContext(parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                              raw=odd.encode(), text=odd)))
    f, g = ctx.nodes(ast.FunctionDef)
    assert ctx.under(g, f) and not ctx.under(f, g) and ctx.under(f, f)


def test_statement_walk_gives_the_statements_of_ast_walk_in_its_order() -> None:
    from preflight.analysis.syntax import statement_walk

    holders = (ast.stmt, ast.excepthandler) + ((ast.match_case,) if sys.version_info >= (3, 10) else ())
    root = Path(__file__).resolve().parents[1]
    sources = [_FEATURES, _ORDER, *(p.read_text(encoding="utf-8") for p in sorted((root / "preflight/analysis").glob("*.py")))]
    if sys.version_info >= (3, 10):
        sources.append(_MATCH)
    for source in sources:
        tree = ast.parse(source)
        for node in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Try)))]:
            expected = [node, *(n for n in ast.walk(node) if n is not node and isinstance(n, holders))]
            assert statement_walk(node) == expected
