"""PF264 one-shot-iterator-consumed-in-a-loop: a generator (or ``iter(...)``) built once before a loop
and iterated to its end inside it: only the first pass sees any item."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body or a module's top-level code, nested functions and classes left out."""
    todo: list[ast.AST] = list(getattr(scope, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _generator_functions(ctx: FileContext) -> dict[str, ast.AST]:
    """Module-level functions of the file whose own body yields."""
    out: dict[str, ast.AST] = {}
    for node in getattr(ctx.tree, "body", []):
        if isinstance(node, ast.FunctionDef) and any(isinstance(n, (ast.Yield, ast.YieldFrom))
                                                     for n in _own_nodes(node)):
            out[node.name] = node
    return out


def _one_shot(value: ast.expr, gens: dict[str, ast.AST]) -> Optional[str]:
    """What makes ``value`` a one-shot iterator, or None."""
    if isinstance(value, ast.GeneratorExp):
        return "a generator expression"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id in gens:
            return f"a generator: `{value.func.id}` yields"
        if value.func.id == "iter" and len(value.args) == 1:
            return "an iterator (`iter(...)`)"
    return None


def _drains(loop: ast.For) -> bool:
    """A ``for`` without ``break`` of its own runs the iterator to its end."""
    todo: list[ast.AST] = list(loop.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return False
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, *_SCOPES)):
            continue  # a break there leaves the inner loop only
        todo.extend(ast.iter_child_nodes(node))
    return True


def _iterated(node: ast.expr) -> ast.expr:
    """``x`` of ``enumerate(x)`` / ``tqdm(x)`` / ``zip(x, ...)`` (first argument), else the node."""
    while isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and node.args and (
            (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in ("enumerate", "tqdm")):
        node = node.args[0]
    return node


def _drained_param(fn: ast.AST, index: int, keyword: Optional[str]) -> Optional[ast.For]:
    """The ``for`` of ``fn`` that runs its parameter (by position or name) to the end, if any."""
    args = getattr(fn, "args", None)
    if args is None:
        return None
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    name = keyword if keyword is not None else (params[index] if index < len(params) else None)
    if name is None:
        return None
    for node in _own_nodes(fn):
        if isinstance(node, ast.For) and isinstance(_iterated(node.iter), ast.Name) \
                and _iterated(node.iter).id == name and _drains(node):  # type: ignore[attr-defined]
            return node
    return None


@register
class OneShotIteratorConsumedInALoop(Rule):
    code = "PF264"
    name = "one-shot-iterator-consumed-in-a-loop"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("A generator built once before a loop is iterated to its end inside it: every pass after "
               "the first sees no item")
    explanation = """
## What it finds

A name bound once to a one-shot iterator (a call of a generator function of the file,
a generator expression, or `iter(...)`), and then, inside a loop that does not bind the
name again, iterated to its end: by a `for` over it without `break`, directly or in a
function of the file the loop calls with it (`evaluate(eval_batches)` whose body runs
`for batch in batches:`).

## Why it matters

A generator can be iterated once. The first pass consumes it; every later `for` over
it ends at once, so every evaluation after the first averages over nothing and reports
0.0 (or NaN) as its loss (kyutai-labs/moshi-finetune issue 13: "every call of the
evaluate method after the first one will not compute the eval set and result in an
eval_loss and eval_perplexity of 0.0"). Training does not stop; the metrics, early
stopping and best-checkpoint choice read the empty evaluations.

## How to fix it

Build the iterator inside the loop, right before it is consumed
(`evaluate(iterate_batches(...))`), or keep the re-iterable object (the `DataLoader`,
a list) instead of a generator over it.

## When preflight stays silent

* The loop binds the name again before (or after) consuming it, or the consumer stops
  with `break` (an endless generator read a few items at a time).
* The iterator is read with `next()` (an endless training stream), or it is a
  `DataLoader`, list or other re-iterable object.
"""
    bad_examples = examples("preflight.rules.code._pf264_examples", "PF264_BAD")
    good_examples = examples("preflight.rules.code._pf264_examples", "PF264_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        gens = _generator_functions(ctx)
        funcs: dict[str, ast.AST] = {n.name: n for n in getattr(ctx.tree, "body", []) if isinstance(n, _FUNCS)}
        scopes: list[ast.AST] = [ctx.tree, *(n for n in ctx.nodes(ast.FunctionDef))]
        for scope in scopes:
            nodes = list(_own_nodes(scope))
            for assign in [n for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                           and isinstance(n.targets[0], ast.Name)]:
                what = _one_shot(assign.value, gens)
                if what is None:
                    continue
                name = assign.targets[0].id  # type: ignore[attr-defined]
                if sum(1 for n in nodes if isinstance(n, ast.Name) and n.id == name
                       and isinstance(n.ctx, ast.Store)) != 1:
                    continue  # bound again somewhere: not followed
                found = self._consumed_in_loop(nodes, assign, name, funcs)
                if found is None:
                    continue
                loop, use, where = found
                yield ctx.finding(
                    self, assign,
                    f"`{name}` is {what}, built once here, and the loop at line {getattr(loop, 'lineno', '?')} runs it to its end "
                    f"{where} on every pass: only the first pass sees any item, every later one iterates over "
                    f"nothing (an evaluation of nothing reports a loss of 0.0 or NaN). Build the iterator inside "
                    f"the loop, right before it is consumed, or keep a re-iterable object (the DataLoader, a list)",
                    evidence=[ctx.evidence(use, "consumed here on every pass"),
                              ctx.evidence(loop, "the loop that repeats it")])

    @staticmethod
    def _consumed_in_loop(nodes: list[ast.AST], assign: ast.Assign, name: str,
                          funcs: dict[str, ast.AST]) -> Optional[tuple[ast.AST, ast.AST, str]]:
        for loop in nodes:
            if not isinstance(loop, (ast.For, ast.While)) or loop.lineno <= assign.lineno:
                continue
            for node in ast.walk(loop):
                if isinstance(node, ast.For) and node is not loop and isinstance(_iterated(node.iter), ast.Name) \
                        and _iterated(node.iter).id == name and _drains(node):  # type: ignore[attr-defined]
                    return loop, node, f"(`for ... in {name}` at line {node.lineno})"
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in funcs:
                    callee = funcs[node.func.id]
                    for i, arg in enumerate(node.args):
                        if isinstance(arg, ast.Name) and arg.id == name:
                            inner = _drained_param(callee, i, None)
                            if inner is not None:
                                return loop, node, (f"through `{node.func.id}()` (its `for` at line "
                                                    f"{inner.lineno})")
                    for kw in node.keywords:
                        if isinstance(kw.value, ast.Name) and kw.value.id == name and kw.arg is not None:
                            inner = _drained_param(callee, 0, kw.arg)
                            if inner is not None:
                                return loop, node, (f"through `{node.func.id}()` (its `for` at line "
                                                    f"{inner.lineno})")
        return None
