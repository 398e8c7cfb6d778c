"""OmegaConf resolvers a Hydra app registers itself, evaluated as arithmetic without running them.

The lightning-hydra-template family registers resolvers in its entry script and uses them in its configs:
HazyResearch/based @ 32c1bd4e ``train/run.py:11-12`` (as Dao-AILab/flash-attention @ 0251105a
``training/run.py:11-12``) ``OmegaConf.register_new_resolver('eval', eval)`` and
``OmegaConf.register_new_resolver('div_up', lambda x, y: (x + y - 1) // y)``, and
``configs/experiment/pile/base.yaml:24`` ``accumulate_grad_batches: ${div_up:${train.global_batch_size},
${eval:${trainer.devices} * ${datamodule.batch_size} * ${trainer.num_nodes}}}``.

:func:`registered` reads the module-level registrations of a script (never imports or calls anything):
``eval`` (the builtin) and a ``lambda`` whose body is arithmetic over its parameters. While
:func:`using` is active, :mod:`preflight.adapters.hydra_values` evaluates ``${name:args}`` of such a
resolver over its (already interpolated) arguments with :func:`arith`: numbers, ``+ - * / // %``,
parentheses, unary minus; anything else (a name, a call, an attribute, a string) stays unknown.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import operator
from typing import Any, Callable, Iterator, Optional

from preflight.analysis.syntax import dotted_name

_ACTIVE: contextvars.ContextVar[Optional[dict[str, Callable[[list[str]], Any]]]] = contextvars.ContextVar(
    "hydra_project_resolvers", default=None)
_OPS: dict[type, Callable[[Any, Any], Any]] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                                               ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
                                               ast.Mod: operator.mod}
_MAX_TEXT = 200
_MAX_ABS = 10 ** 15


class _NotArith(Exception):
    pass


def arith(node: ast.AST, env: Optional[dict[str, Any]] = None) -> Any:
    """The value of an arithmetic expression over numbers and ``env``'s names; _NotArith otherwise."""
    if isinstance(node, ast.Expression):
        return arith(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and env is not None and node.id in env:
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = arith(node.operand, env)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = arith(node.left, env), arith(node.right, env)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise _NotArith
        value = _OPS[type(node.op)](left, right)
        if abs(value) > _MAX_ABS:
            raise _NotArith
        return value
    raise _NotArith


def _number(text: str) -> Any:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise _NotArith from None
    return arith(tree)


def _eval(args: list[str]) -> Any:
    if len(args) != 1 or len(args[0]) > _MAX_TEXT:
        raise _NotArith
    return _number(args[0])


def _lambda(fn: ast.Lambda) -> Optional[Callable[[list[str]], Any]]:
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
        return None
    names = [p.arg for p in a.args]

    def call(args: list[str]) -> Any:
        if len(args) != len(names) or any(len(x) > _MAX_TEXT for x in args):
            raise _NotArith
        return arith(fn.body, {n: _number(x) for n, x in zip(names, args)})
    return call


def registered(tree: Optional[ast.AST]) -> dict[str, Callable[[list[str]], Any]]:
    """name -> evaluator for the ``OmegaConf.register_new_resolver(name, eval | lambda ...)`` statements at
    the top level of ``tree``."""
    out: dict[str, Callable[[list[str]], Any]] = {}
    if not isinstance(tree, ast.Module):
        return out
    for stmt in tree.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call) or not (dotted_name(call.func) or "").endswith(
                "OmegaConf.register_new_resolver") or len(call.args) < 2:
            continue
        name, fn = call.args[0], call.args[1]
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            continue
        if isinstance(fn, ast.Name) and fn.id == "eval":
            out[name.value] = _eval
        elif isinstance(fn, ast.Lambda):
            made = _lambda(fn)
            if made is not None:
                out[name.value] = made
    return out


def evaluate(name: str, args_text: str) -> tuple[bool, Any]:
    """(whether ``name`` is an active project resolver, its value or None when not arithmetic)."""
    found = (_ACTIVE.get() or {}).get(name)
    if found is None:
        return False, None
    try:
        return True, found(_split(args_text))
    except (_NotArith, ArithmeticError, ValueError, OverflowError):
        return True, None


def _split(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts]


@contextlib.contextmanager
def using(resolvers: dict[str, Callable[[list[str]], Any]]) -> Iterator[None]:
    token = _ACTIVE.set(resolvers)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
