"""PF646 duplicate-hydra-override: a list of Hydra overrides built in Python emits the same key twice; Hydra
applies them in order and the later value silently wins."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_KEY = re.compile(r"^([+~]{0,2}[A-Za-z_][\w-]*(?:\.[\w-]+)+)=")
_MIN = 3  # a list holds at least this many overrides before it is read as one


def _key(node: ast.expr) -> Optional[str]:
    """``"a.b.c=1"`` / ``f"a.b.c={x}"`` -> ``a.b.c`` (``+``/``++`` prefixes dropped)."""
    text: Optional[str] = None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
            and isinstance(node.values[0].value, str):
        text = node.values[0].value
    found = _KEY.match(text) if text is not None else None
    return found.group(1).lstrip("+") if found else None


def _overrides(node: Optional[ast.expr]) -> Optional[list[tuple[str, ast.expr]]]:
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    keys = [(k, e) for e in node.elts for k in [_key(e)] if k is not None]
    return keys if len(keys) >= _MIN else None


@register
class DuplicateHydraOverride(Rule):
    code = "PF646"
    needs_text = ("=",)
    name = "duplicate-hydra-override"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A list of Hydra overrides built in Python emits the same key twice: Hydra applies them in order and "
               "the later value silently replaces the first")
    explanation = """
## What it finds

A Python list of Hydra command-line overrides (`"a.b.c=value"` strings and f-strings, at
least three in the list) that holds the same dotted key twice, directly or once the lists
that helpers of the file return are joined (`overrides = shared(cfg)` then `overrides +=
fsdp(cfg)`), outside mutually exclusive branches. Reported on the later one.

## Why it matters

Hydra applies repeated dotted overrides in order, and the last one wins without a warning:
the value the configuration (or the launch line) set is silently replaced by the literal
of the second list (awsome-distributed-ai PR 1232, a verl submit script where the FSDP
overrides re-emitted `actor_rollout_ref.actor.ppo_mini_batch_size=24` after the shared
overrides set it from the recipe; checked against hydra-core 1.3.5 / omegaconf 2.3.1).

## How to fix it

Emit each key once: compute the backend-specific value where the shared override is built,
or filter the shared list before appending.

## When preflight stays silent

* The two overrides are in the two branches of one `if`/`else` (only one runs).
* The key is not dotted, or the list holds fewer than three overrides.
"""
    bad_examples = examples("preflight.rules.code._pf646_examples", "PF646_BAD")
    good_examples = examples("preflight.rules.code._pf646_examples", "PF646_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        returned: dict[str, list[tuple[str, ast.expr]]] = {}
        for func in ctx.nodes(ast.FunctionDef):
            rets = [r for r in ast.walk(func) if isinstance(r, ast.Return)]
            if len(rets) == 1 and (found := _overrides(rets[0].value)) is not None:
                returned[func.name] = found
        for lst in ctx.nodes(ast.List):
            yield from self._duplicates(ctx, [(k, e, lst) for k, e in _overrides(lst) or []])
        scopes: list[ast.AST] = [*ctx.nodes(ast.FunctionDef), ctx.tree]
        for fn in scopes:
            built: dict[str, list[tuple[str, ast.expr, ast.AST]]] = {}
            for node in ast.walk(fn):
                if ctx.enclosing_function(node) is not (fn if fn is not ctx.tree else None):
                    continue
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name, value, fresh = node.targets[0].id, node.value, True
                elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) \
                        and isinstance(node.op, ast.Add):
                    name, value, fresh = node.target.id, node.value, False
                else:
                    continue
                parts = self._parts(value, returned)
                if parts is None:
                    continue
                if fresh:
                    built[name] = []
                built.setdefault(name, []).extend((k, e, node) for k, e in parts)
            for items in built.values():
                if len({id(src) for _, _, src in items}) > 1:
                    yield from self._duplicates(ctx, items)

    @staticmethod
    def _parts(value: ast.expr, returned: dict) -> Optional[list[tuple[str, ast.expr]]]:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in returned:
            return list(returned[value.func.id])
        return _overrides(value)

    def _duplicates(self, ctx: FileContext, items: list[tuple[str, ast.expr, ast.AST]]) -> Iterable[Finding]:
        seen: dict[str, tuple[ast.expr, ast.AST]] = {}
        for key, elt, src in items:
            if key in seen:
                first, first_src = seen[key]
                if first_src is not src and _exclusive(ctx, first_src, src):
                    continue
                yield ctx.finding(
                    self, elt,
                    f"`{key}` is overridden twice: `{ast.unparse(first)}` (line {first.lineno}) and then "
                    f"`{ast.unparse(elt)}`; Hydra applies repeated overrides in order, so this later value silently "
                    "replaces the first one. Emit the key once",
                    evidence=[ctx.evidence(first, "the first override of the key")])
            else:
                seen[key] = (elt, src)


def _exclusive(ctx: FileContext, a: ast.AST, b: ast.AST) -> bool:
    """``a`` and ``b`` sit in the two branches of one ``if``."""
    chain: dict[int, tuple[ast.AST, ast.AST]] = {}
    child, cur = a, ctx.parent(a)
    while cur is not None:
        chain[id(cur)] = (cur, child)
        child, cur = cur, ctx.parent(cur)
    child, cur = b, ctx.parent(b)
    while cur is not None:
        if id(cur) in chain:
            node, a_child = chain[id(cur)]
            if isinstance(node, ast.If):
                a_body = any(a_child is s for s in node.body)
                b_body = any(child is s for s in node.body)
                return a_body != b_body
            return False
        child, cur = cur, ctx.parent(cur)
    return False
