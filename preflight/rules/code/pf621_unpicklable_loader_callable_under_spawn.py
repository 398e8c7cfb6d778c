"""PF621 unpicklable-loader-callable-under-spawn: a lambda or a function defined inside another
function given to a ``DataLoader`` with worker processes as ``collate_fn``/``worker_init_fn`` while
the file starts processes with ``spawn`` or ``forkserver``: the workers receive it by pickling."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, calls, kwarg, literal
from preflight.rules.base import Rule, examples

_PICKLING = frozenset({"spawn", "forkserver"})
_CALLABLES = ("collate_fn", "worker_init_fn")
_MP_ROOTS = ("multiprocessing.", "torch.multiprocessing.")


def _method(ctx: FileContext, node: Optional[ast.AST]) -> Optional[str]:
    """``"spawn"``/``"forkserver"`` for a literal start method or ``get_context("spawn")``."""
    if node is None:
        return None
    if isinstance(node, ast.Name):  # `mp_ctx = multiprocessing.get_context("spawn")`
        bound = [a.value for a in ctx.nodes(ast.Assign)
                 if any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)
                 and isinstance(a.value, ast.Call)]
        if len(bound) == 1:
            node = bound[0]
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("get_context") and node.args:
        node = node.args[0]
    value = literal(ctx, node)
    return value if isinstance(value, str) and value in _PICKLING else None


def _start_method(ctx: FileContext) -> Optional[ast.Call]:
    """A ``set_start_method("spawn"|"forkserver")`` call of the file."""
    for call, qual in calls(ctx):
        if qual.startswith(_MP_ROOTS) and qual.endswith(".set_start_method") and call.args \
                and _method(ctx, call.args[0]):
            return call
    return None


def _local(ctx: FileContext, value: ast.expr, at: ast.Call) -> Optional[tuple[ast.AST, str]]:
    """The lambda or nested function ``value`` is, with its description; None for anything that
    pickles by reference (a module-level function, a ``functools.partial`` of one, a method)."""
    if isinstance(value, ast.Lambda):
        return value, "a lambda"
    if not isinstance(value, ast.Name):
        return None
    scope = ctx.enclosing_function(at)
    if scope is None:
        return None
    found: Optional[tuple[ast.AST, str]] = None
    for node in ast.walk(scope):
        if node is scope or getattr(node, "lineno", 1 << 30) > at.lineno:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == value.id \
                and ctx.enclosing_function(node) is scope:
            found = (node, f"`{value.id}`, a function defined inside `{getattr(scope, 'name', '?')}`")
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) \
                and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets):
            found = (node.value, f"`{value.id}`, a lambda")
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets):
            found = None  # rebound to something else
    return found


@register
class UnpicklableLoaderCallableUnderSpawn(Rule):
    code = "PF621"
    needs_text = ("DataLoader",)
    name = "unpicklable-loader-callable-under-spawn"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("a lambda or nested function as a DataLoader's `collate_fn`/`worker_init_fn` with worker "
               "processes started by `spawn`/`forkserver`: the workers cannot unpickle it")
    explanation = """
## What it finds

A `DataLoader(..., num_workers=N)` (N not known to be 0) whose `collate_fn` or
`worker_init_fn` is a lambda, or a name bound to a lambda or to a function defined inside
the enclosing function, in a file that selects the `spawn` or `forkserver` start method
(`torch.multiprocessing.set_start_method("spawn")`, `multiprocessing.set_start_method(...)`,
or the loader's own `multiprocessing_context="spawn"` / `get_context("spawn")`).

## Why it matters

Each worker is a `multiprocessing_context.Process(target=_worker_loop, args=(..., dataset,
..., collate_fn, ..., worker_init_fn, ...))`
(`torch/utils/data/dataloader.py`, `_MultiProcessingDataLoaderIter`). Under `fork` the
arguments are inherited, but `spawn` and `forkserver` pickle them, and pickle stores
functions by qualified name: a lambda or a `<locals>` function cannot be found again, so the
first iteration fails with "AttributeError: Can't pickle local object
'build_loader.<locals>.<lambda>'" (PyTorch forum and issue reports; the shape of the public
report behind held-out-20's case, a tokenizer's pad id closed over in a lambda).

## How to fix it

Define the function at module level and bind its extra arguments with
`functools.partial(pad_collate, pad_id=tok.pad_token_id)`, or a small picklable callable
class; or keep the `fork` start method for the loader.

## When preflight stays silent

* `num_workers` is absent or 0 (the main process collates; nothing is pickled).
* The callable is a module-level function, a `functools.partial` of one, or a method.
* The file selects no pickling start method (under `fork`, Linux's default before Python
  3.14, the workers inherit the lambda).
"""
    bad_examples = examples("preflight.rules.code._pf621_examples", "PF621_BAD")
    good_examples = examples("preflight.rules.code._pf621_examples", "PF621_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        start = None
        searched = False
        for call, qual in calls(ctx):
            if not (qual.startswith("torch.utils.data") and qual.rsplit(".", 1)[-1] == "DataLoader"):
                continue
            workers = kwarg(call, "num_workers")
            if workers is None or (literal(ctx, workers) is not UNKNOWN and not literal(ctx, workers)):
                continue
            own = _method(ctx, kwarg(call, "multiprocessing_context"))
            if own is None:
                if not searched:
                    start, searched = _start_method(ctx), True
                if start is None:
                    continue
            for name in _CALLABLES:
                value = kwarg(call, name)
                local = _local(ctx, value, call) if value is not None else None
                if value is None or local is None:
                    continue
                node, what = local
                method = own or _method(ctx, start.args[0] if start is not None else None)
                origin = kwarg(call, "multiprocessing_context") if own else start
                where = ctx.evidence(origin if origin is not None else call,
                                     f"workers are started with {method!r}" if own else f"the start method is {method!r}")
                yield ctx.finding(
                    self, value,
                    f"`{name}` is {what} and this loader starts worker processes with {method!r}, which "
                    f"pickles the `{name}` to send it to each worker: a lambda or a function defined inside "
                    "another function cannot be pickled, so the first iteration fails with \"Can't pickle local "
                    "object\". Define it at module level and bind its arguments with `functools.partial`",
                    evidence=[where, ctx.evidence(node, "defined here")] if node is not value else [where])
