"""Syntax helpers of the accumulation analysis: the window a guard tests (``i % k == 0``, a counter), whether a node sits in a branch, a block or under a window guard, where gradients are reset, and value identity."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext


def text(node: Optional[ast.AST]) -> str:
    return ast.unparse(node) if node is not None else ""


def is_number(node: ast.AST, value: Optional[float] = None) -> bool:
    if not (isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)):
        return False
    return value is None or node.value == value


def _batch_parameter(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """``name`` is the ``batch`` parameter of ``fn`` (a Lightning ``training_step(self, batch, ...)``
    or a helper it hands its batch to): what a data loader yields, which cannot carry the window."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    return name == "batch" and name in params


def _bound_value(bound: ast.AST) -> Optional[ast.AST]:
    """The expression `_trace_binding` follows for a binding (None: it follows nothing)."""
    if isinstance(bound, (ast.AugAssign, ast.Assign, ast.AnnAssign, ast.NamedExpr)):
        return bound.value
    if isinstance(bound, ast.withitem):
        return bound.context_expr
    return None


def _key(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _modulus(test: ast.expr) -> Optional[ast.expr]:
    for node in ast.walk(test):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            if is_number(node.right) and node.right.value in (0, 1):  # type: ignore[attr-defined]
                continue
            if isinstance(node.right, (ast.Constant, ast.Name, ast.Attribute, ast.Subscript)):
                return node.right
    return None


def _counter_window(ctx: FileContext, guard: ast.If, fn: FunctionInfo) -> Optional[ast.expr]:
    """N of a counter window ``if k >= N:`` / ``if k == N:`` whose counter the function counts up
    (``k += 1``) and the branch resets (``k = 0``): neural_sp's ``accum_n_steps`` loop, a step every N
    backward passes written without a modulus."""
    test = guard.test
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):  # `k >= N or is_new_epoch`
        test = next((v for v in test.values if isinstance(v, ast.Compare)), test)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.GtE, ast.Eq))):
        return None
    counter, bound = _key(test.left), test.comparators[0]
    if counter is None or not isinstance(bound, (ast.Constant, ast.Name, ast.Attribute, ast.Subscript)):
        return None
    if isinstance(bound, ast.Constant) and not (isinstance(bound.value, int) and bound.value > 1):
        return None
    counts = any(isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and _key(n.target) == counter
                 and is_number(n.value, 1) for n in ast.walk(fn.node))
    resets = any(isinstance(n, ast.Assign) and is_number(n.value, 0) and any(_key(t) == counter for t in n.targets)
                 for stmt in guard.body for n in ast.walk(stmt))
    return bound if counts and resets else None


def _in_body(ctx: FileContext, node: ast.AST, branch: ast.If) -> bool:
    cur: Optional[ast.AST] = node
    while cur is not None and ctx.parent(cur) is not branch:
        cur = ctx.parent(cur)
    return cur is not None and cur in branch.body


def _inside(ctx: FileContext, node: ast.AST, outer: ast.AST) -> bool:
    return any(anc is outer for anc in ctx.ancestors(node))


def _zeroes_outside(ctx: FileContext, loop: Optional[LoopInfo], fn: FunctionInfo, guard: ast.If,
                    resets: dict[FunctionInfo, list[ast.AST]]) -> bool:
    """A ``zero_grad()`` / ``.grad = None`` in the loop (or function) that is not under the guard."""
    body_owner = loop.node if loop is not None else fn.node
    return any(_inside(ctx, node, body_owner) and not _inside(ctx, node, guard)
               and not _under_window_guard(ctx, node, body_owner)
               for node in resets.get(fn, ()))


def _same_block(ctx: FileContext, stmt: ast.stmt, node: ast.AST) -> bool:
    """``node`` (or a statement around it) is in the statement list that holds ``stmt``."""
    parent = ctx.parent(stmt)
    block = next((b for b in (getattr(parent, f, None) for f in ("body", "orelse", "finalbody"))
                  if isinstance(b, list) and any(s is stmt for s in b)), None)
    if block is None:
        return False
    return any(any(s is anc for s in block) for anc in (node, *ctx.ancestors(node)))


def _under_window_guard(ctx: FileContext, node: ast.AST, outer: ast.AST) -> bool:
    """``node`` sits in the body of an ``if ... % N == 0`` of its own inside ``outer`` (the
    other branch's step of llama-cookbook's ``if fp16: scaler... else: ...`` loop)."""
    child = node
    for anc in ctx.ancestors(node):
        if anc is outer:
            return False
        if isinstance(anc, ast.If) and child in anc.body and _modulus(anc.test) is not None:
            return True
        child = anc
    return False


def _resets(ctx: FileContext, scopes: ScopeIndex) -> dict[FunctionInfo, list[ast.AST]]:
    """Every ``x.zero_grad(...)`` call and ``p.grad = None`` of the file, by function."""
    found: list[ast.AST] = [c for c in ctx.nodes(ast.Call) if isinstance(
        c.func, ast.Attribute) and c.func.attr == "zero_grad"]
    found.extend(a for a in ctx.nodes(ast.Assign) if is_none(a.value) and any(
        isinstance(t, ast.Attribute) and t.attr == "grad" for t in a.targets))
    out: dict[FunctionInfo, list[ast.AST]] = {}
    for node in found:
        out.setdefault(scopes.function_of(node), []).append(node)
    return out


def is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def same_value(a: Optional[ast.AST], b: Optional[ast.AST]) -> bool:
    """The same window size: equal numbers or the same expression text."""
    if a is None or b is None:
        return False
    if is_number(a) and is_number(b):
        return a.value == b.value  # type: ignore[attr-defined]
    return ast.dump(a) == ast.dump(b)
