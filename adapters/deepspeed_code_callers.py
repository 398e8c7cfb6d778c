"""Where a DeepSpeed config handed to ``deepspeed.initialize`` inside a project wrapper comes from.

Tencent/HunyuanDiT @ 368280e ``hydit/train_deepspeed.py:40-55``: ``def deepspeed_initialize(args,
logger, model, opt, deepspeed_config)`` calls ``deepspeed.initialize(..., config_params=deepspeed_config)``
with the dict a parameter of the wrapper; the caller ``main`` builds it at ``:231``
(``deepspeed_config = deepspeed_config_from_args(args, global_batch_size)``) and passes it on at
``:467-469``. The parameter is followed to the one call of the wrapper in the same module and to
the name given there, in the caller's function (a few hops at most). A wrapper called from more
than one place with different names, or with an expression that is not a plain name, says
nothing: which dict reaches the engine is then not one fact. Nothing is executed.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.local_trees import nodes_of

_MAX_HOPS = 3


def _enclosing(tree: ast.Module, line: int) -> Optional[ast.FunctionDef]:
    best = None
    for n in nodes_of(tree):
        if isinstance(n, ast.FunctionDef) and n.lineno <= line <= (n.end_lineno or n.lineno) \
                and (best is None or n.lineno > best.lineno):
            best = n
    return best


def _argument_of(call: ast.Call, fn: ast.FunctionDef, name: str) -> Optional[ast.AST]:
    """The expression ``call`` binds to ``fn``'s parameter ``name`` (by position or keyword)."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if name in params:
        k = params.index(name)
        if k < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:k + 1]):
            return call.args[k]
    return None


def passed_in(tree: ast.Module, fn: ast.FunctionDef, name: str) \
        -> Optional[tuple[Optional[ast.FunctionDef], str, int]]:
    """When ``name`` is a parameter of ``fn``: the function of the module that calls ``fn`` (None
    for module level), the plain name it passes for that parameter and the line of the call;
    None unless every call of ``fn`` in the module passes the same name from the same function."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    if name not in params:
        return None
    found: Optional[tuple[Optional[ast.FunctionDef], str, int]] = None
    for node in nodes_of(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn.name):
            continue
        arg = _argument_of(node, fn, name)
        if not isinstance(arg, ast.Name):
            return None
        caller = _enclosing(tree, node.lineno)
        if caller is fn:
            return None  # recursion: not followed
        if found is not None and (found[0] is not caller or found[1] != arg.id):
            return None
        if found is None or node.lineno < found[2]:
            found = (caller, arg.id, node.lineno)
    return found


def origin(tree: ast.Module, fn: Optional[ast.FunctionDef], name: str, line: int, assigned) \
        -> tuple[Optional[ast.FunctionDef], str, int]:
    """Follow ``name`` at ``line`` in ``fn`` back through the callers while it is a parameter that
    ``fn`` does not rebind before ``line`` (``assigned(stmts, name, line)`` says whether it does):
    the function, name and line where its value is built."""
    for _ in range(_MAX_HOPS):
        if fn is None:
            break
        if assigned(fn.body, name, line) is not None:
            break
        hop = passed_in(tree, fn, name)
        if hop is None:
            break
        fn, name, line = hop
    return fn, name, line


__all__ = ["origin", "passed_in"]
