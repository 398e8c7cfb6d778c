"""Shared by the rules on a loss as it is logged (PF271, PF272, PF273): what a logging call writes, the name
a logged value is, running sums and their divisions."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

# logging calls: method name -> position of the tag (None: the first argument is a dict of values)
_LOG_METHODS = {"log": 0, "log_metrics": None, "add_scalar": 0, "log_dict": None}
# wrappers that keep a value's size: ``total.item()``, ``float(total)``, ``total.detach().cpu()``
_KEEP_METHODS = ("item", "detach", "cpu", "float", "tolist")
_KEEP_FUNCS = ("float", "round")


def logged_pairs(call: ast.Call) -> Iterator[tuple[str, ast.expr]]:
    """(key, value) pairs a logging call writes: ``log({"k": v})``, ``add_scalar("k", v)``, ``log("k", v)``."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _LOG_METHODS:
        return
    tag = _LOG_METHODS[func.attr]
    if tag is not None and len(call.args) > 1 and isinstance(call.args[0], ast.Constant) \
            and isinstance(call.args[0].value, str):
        yield call.args[0].value, call.args[1]
        return
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Dict):
        for key, value in zip(first.keys, first.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield key.value, value


def logged_name(expr: ast.expr) -> Optional[str]:
    """The name a logged value is, through size-keeping wrappers; None when it is computed."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Call) and not expr.keywords:
            func = expr.func
            if isinstance(func, ast.Attribute) and func.attr in _KEEP_METHODS and not expr.args:
                expr = func.value
                continue
            if isinstance(func, ast.Name) and func.id in _KEEP_FUNCS and expr.args:
                expr = expr.args[0]
                continue
        return None


def has_division(node: ast.AST) -> bool:
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv)) for n in ast.walk(node)) \
        or any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))
               and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) in ("mean", "div", "true_divide")
               for n in ast.walk(node))


def divided_names(scope: ast.AST) -> set[str]:
    """Names the scope divides in place or reassigns through a division (``loss = loss / accum``,
    ``total /= n``, ``total = total / len(loader)``)."""
    out: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Div, ast.FloorDiv)) \
                and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, ast.Assign) and has_division(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.add(target.id)
    return out


def training_loop(loop: ast.AST) -> bool:
    """A loop over batches: it iterates a loader or runs a backward pass or an optimizer step (a loop over
    the terms of one loss, ``for head in heads: loss += ...``, is none)."""
    if isinstance(loop, ast.For) and "loader" in ast.unparse(loop.iter).lower():
        return True
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("backward", "step")
               for n in ast.walk(loop))


def loop_sum(scope: ast.AST, name: str) -> Optional[ast.AugAssign]:
    """``name += <a loss>`` inside a training loop of the scope."""
    for node in ast.walk(scope):
        if not isinstance(node, (ast.For, ast.While)) or not training_loop(node):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.AugAssign) and isinstance(inner.op, ast.Add) \
                    and isinstance(inner.target, ast.Name) and inner.target.id == name \
                    and any(isinstance(n, (ast.Name, ast.Attribute)) and "loss" in
                            (n.id if isinstance(n, ast.Name) else n.attr).lower() for n in ast.walk(inner.value)):
                return inner
    return None


def zero_assign(node: ast.AST, name: str) -> bool:
    """``name = 0`` / ``0.0`` / ``torch.tensor(0.0)`` / ``torch.zeros(...)``."""
    if not isinstance(node, ast.Assign) or not any(isinstance(t, ast.Name) and t.id == name
                                                   for t in node.targets):
        return False
    value = node.value
    if isinstance(value, ast.Constant) and value.value == 0 and not isinstance(value.value, bool):
        return True
    if isinstance(value, ast.Call):
        callee = ast.unparse(value.func)
        if callee.endswith("zeros") or (callee.endswith("tensor") and value.args
                                        and isinstance(value.args[0], ast.Constant)
                                        and value.args[0].value == 0):
            return True
    return False


def starts_at_zero(scope: ast.AST, name: str) -> bool:
    """A zero start of ``name`` in the scope: a running total."""
    return any(zero_assign(node, name) for node in ast.walk(scope))
