"""Helpers for PF101 that look at a few statements of one function.

Each index here is built at most once per file (through ``ctx.cached``) and
only when a PF101 candidate needs it, so the common case costs nothing.
"""

from __future__ import annotations

import ast
from typing import Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.dataflow import GradFlow
from preflight.analysis.rebinds import container_key_text, unconditional_rebinds
from preflight.analysis.scopes import FunctionInfo, LoopInfo

AssignNode = Union[ast.Assign, ast.AnnAssign]
_SAFE_FUNCTIONS = frozenset({"print", "float", "int", "round", "str", "abs", "format", "repr"})
_SAFE_METHODS = frozenset({"log", "info", "debug", "warning", "write", "set_postfix", "format",
                           "set_description", "add_scalar", "log_metrics", "log_dict"})
_DICT_FACTORIES = frozenset({"dict", "list", "defaultdict", "OrderedDict", "deque",
                             "collections.defaultdict", "collections.OrderedDict",
                             "collections.deque"})


def text(node: ast.AST, limit: int = 60) -> str:
    try:
        out = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every parsed tree
        return "value"
    out = " ".join(out.split())
    return out if len(out) <= limit else out[: limit - 3] + "..."


def function_rebinds(ctx: FileContext, fn: FunctionInfo) -> set[str]:
    """Names and ``self.x`` rebound (or cleared) on every run of ``fn``'s body."""
    cache: dict[FunctionInfo, set[str]] = ctx.cached("pf101.rebinds", dict)
    found = cache.get(fn)
    if found is None:
        found = unconditional_rebinds(list(getattr(fn.node, "body", [])))
        cache[fn] = found
    return found


Assigned = tuple[AssignNode, Optional[ast.expr]]  # (statement, the value bound to the key)


def _pairs(target: ast.AST, value: Optional[ast.expr]) -> list[tuple[str, Optional[ast.expr]]]:
    """(key, value) for a target; ``a, b = [], 0`` pairs each name with its element."""
    if isinstance(target, (ast.Tuple, ast.List)):
        elements: list[Optional[ast.expr]]
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
            elements = list(value.elts)
        else:
            elements = [None] * len(target.elts)
        return [pair for t, v in zip(target.elts, elements) for pair in _pairs(t, v)]
    key = container_key_text(target)
    return [(key, value)] if key is not None else []


def _assignments(ctx: FileContext, flow: GradFlow) -> dict[tuple[FunctionInfo, str], list[Assigned]]:
    def build() -> dict[tuple[FunctionInfo, str], list[Assigned]]:
        out: dict[tuple[FunctionInfo, str], list[Assigned]] = {}
        for node in ctx.nodes(ast.Assign, ast.AnnAssign):
            if isinstance(node, ast.AnnAssign) and node.value is None:
                continue
            fn = flow.scopes.function_of(node)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for key, value in _pairs(target, node.value):
                    out.setdefault((fn, key), []).append((node, value))
        return out

    return ctx.cached("pf101.assignments", build)


def _loads(ctx: FileContext, flow: GradFlow) -> dict[tuple[FunctionInfo, str], list[ast.Name]]:
    def build() -> dict[tuple[FunctionInfo, str], list[ast.Name]]:
        out: dict[tuple[FunctionInfo, str], list[ast.Name]] = {}
        for name in ctx.nodes(ast.Name):
            if isinstance(name.ctx, ast.Load):
                out.setdefault((flow.scopes.function_of(name), name.id), []).append(name)
        return out

    return ctx.cached("pf101.loads", build)


def assigned_before(ctx: FileContext, flow: GradFlow, key: str, fn: FunctionInfo,
                    stmt: ast.AST) -> Optional[AssignNode]:
    """The last assignment of ``key`` in ``fn`` on a line before ``stmt``."""
    loop = flow.scopes.loop_of(stmt)
    limit = loop.line if loop is not None else getattr(stmt, "lineno", 0)
    while loop is not None:
        limit = loop.line
        loop = loop.parent
    best: Optional[AssignNode] = None
    for node, _ in _assignments(ctx, flow).get((fn, key), []):
        if node.lineno < limit and (best is None or node.lineno > best.lineno):
            best = node
    return best


def reset_in_loop(ctx: FileContext, flow: GradFlow, key: str, fn: FunctionInfo,
                  loop: LoopInfo) -> Optional[AssignNode]:
    """An assignment that (conditionally) re-creates ``key`` inside ``loop``'s body."""
    node = loop.node
    first, last = node.lineno, getattr(node, "end_lineno", None) or node.lineno
    for assign, _ in _assignments(ctx, flow).get((fn, key), []):
        if first < assign.lineno <= last:
            return assign
    return None


def is_tensor_buffer(ctx: FileContext, flow: GradFlow, key: str, fn: FunctionInfo) -> bool:
    """True unless every binding of ``key`` is a dict or list (a tensor copies values in)."""
    scope = fn if key.startswith("self.") else flow.scopes.scope_of_name(key, fn)
    found = _assignments(ctx, flow).get((scope, key), [])
    if not found:
        return True
    for _, value in found:
        if isinstance(value, (ast.Dict, ast.List, ast.DictComp, ast.ListComp)):
            continue
        if isinstance(value, ast.Call) and (flow.scopes.imports.qualify(value.func) or "") in (
                _DICT_FACTORIES):
            continue
        return True
    return False


def grows_with_loop(ctx: FileContext, key: ast.expr, loop: LoopInfo) -> bool:
    """True if a subscript key changes every iteration of ``loop`` (its target or a counter)."""
    cache: dict[LoopInfo, set[str]] = ctx.cached("pf101.counters", dict)
    names = cache.get(loop)
    if names is None:
        names = set()
        node = loop.node
        if isinstance(node, (ast.For, ast.AsyncFor)):
            names.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        for sub in ast.walk(node):
            if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
                names.add(sub.target.id)
        cache[loop] = names
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(key))


def float_safe_accumulator(ctx: FileContext, flow: GradFlow, name: str, fn: FunctionInfo) -> bool:
    """True if ``name`` starts as a number and is only printed, logged or compared.

    Then ``name += loss.item()`` behaves exactly like ``name += loss`` apart from
    the graph; if the total is ever used as a tensor (``total.item()``, returned,
    passed on) the fix must keep it a tensor and uses ``.detach()`` instead.
    """
    if name in fn.params or name in fn.declared_global or name in fn.declared_nonlocal:
        return False
    assigns = _assignments(ctx, flow).get((fn, name), [])
    if not assigns or not all(_is_number(value) for _, value in assigns):
        return False
    return _uses_safe(ctx, flow, name, fn, {name}, 0)


def _uses_safe(ctx: FileContext, flow: GradFlow, name: str, fn: FunctionInfo, seen: set[str],
               depth: int) -> bool:
    return all(_use_safe(ctx, flow, load, fn, seen, depth)
               for load in _loads(ctx, flow).get((fn, name), []))


def _use_safe(ctx: FileContext, flow: GradFlow, node: ast.AST, fn: FunctionInfo, seen: set[str],
              depth: int) -> bool:
    cur, parent = node, ctx.parent(node)
    while isinstance(parent, (ast.BinOp, ast.UnaryOp)):
        cur, parent = parent, ctx.parent(parent)
    if isinstance(parent, (ast.Compare, ast.FormattedValue)):
        return True
    if isinstance(parent, ast.Dict) and cur in parent.values:
        cur, parent = parent, ctx.parent(parent)
    if isinstance(parent, ast.keyword):
        cur, parent = parent, ctx.parent(parent)
    if isinstance(parent, ast.Call) and cur is not parent.func:
        func = parent.func
        if isinstance(func, ast.Name):
            return func.id in _SAFE_FUNCTIONS
        if isinstance(func, ast.Attribute):
            return func.attr in _SAFE_METHODS or (flow.scopes.imports.qualify(func) or "").startswith(
                "math.")
        return False
    if isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is cur and depth < 3:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        for target in targets:
            if not isinstance(target, ast.Name):
                return False
            if target.id in seen:
                continue
            if not _uses_safe(ctx, flow, target.id, fn, seen | {target.id}, depth + 1):
                return False
        return True
    return False


def _is_number(node: Optional[ast.AST]) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(
        node.value, bool)
