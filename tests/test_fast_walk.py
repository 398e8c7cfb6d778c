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
