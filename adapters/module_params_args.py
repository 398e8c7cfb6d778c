"""The literal a model constructor's argument stands for, read from the file around it
(``argument_value``): a literal, a name bound once, a parameter every caller passes the same
literal for. Read, never run."""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_values import _UNK, _Ctx, _literal

from preflight.analysis.syntax import dotted_name


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _walk_own(stmts: Sequence[ast.AST]) -> list[ast.AST]:
    """Every node of ``stmts``, not descending into functions or classes they define."""
    out: list[ast.AST] = []
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _single_literal(stmts: Sequence[ast.AST], name: str, tree: Optional[ast.Module] = None) -> Any:
    """The literal ``name`` is bound to by the one assignment among ``stmts`` (walked), else _UNK;
    a name also written by item or ``update`` is not a literal."""
    found: list[ast.AST] = []
    for sub in _walk_own(stmts):
        if isinstance(sub, ast.Assign):
            for t in sub.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    found.append(sub.value)
                elif (isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t.value, ast.Name)
                      and t.value.id == name) \
                        or (isinstance(t, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in t.elts)):
                    return _UNK
        elif isinstance(sub, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            for part in ast.walk(getattr(sub, "target", sub)):
                if isinstance(part, ast.Name) and part.id == name and isinstance(part.ctx, ast.Store):
                    return _UNK
        elif isinstance(sub, ast.Call) and ((
                isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name)
                and sub.func.value.id == name and sub.func.attr in ("update", "pop", "setdefault", "clear"))
                or (dotted_name(sub.func) == "setattr" and sub.args and isinstance(sub.args[0], ast.Name)
                    and sub.args[0].id == name)):
            return _UNK
    if len(found) != 1:
        return _UNK
    return _static(found[0], tree)


def _static(node: ast.AST, tree: Optional[ast.Module]) -> Any:
    """A literal, or (with ``tree``) an expression of literals, module constants and calls of the
    file's ``@dataclass`` classes (``GPTConfig(vocab_size=50304)``); else _UNK."""
    try:
        return _literal(node)
    except _Unknown:
        pass
    if tree is None or not any(isinstance(n, ast.Call) for n in ast.walk(node)):
        return _UNK
    ctx = _Ctx(tree)
    if not ctx.dataclasses:
        return _UNK
    try:
        from preflight.adapters.module_params_nested import _Frame  # which imports this module

        return _Frame(ctx, {}, 0).ev(node)
    except (_Unknown, RecursionError):
        return _UNK


def argument_value(tree: ast.Module, function: Optional[str], expr: ast.AST, depth: int = 0) -> Any:
    """The literal an argument written in ``function`` (None: the module level) stands for: a
    literal, a name bound once to a literal (in the function, else at the top level of the file),
    or a parameter of ``function`` that every call of it in the file passes the same literal for;
    ``UNKNOWN`` otherwise. Read, never run."""
    if not isinstance(expr, ast.Name):
        return _static(expr, tree) if depth <= 3 else _UNK
    if depth > 3:
        return _UNK
    funcs = _functions(tree)
    fn = funcs.get(function or "")
    if fn is not None:
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        if expr.id in params + [p.arg for p in fn.args.kwonlyargs]:
            if _stored(fn.body, expr.id):
                return _UNK  # rebound inside
            return _passed(tree, funcs, fn.name, params, expr.id, depth)
        local = _single_literal(fn.body, expr.id, tree)
        if local is not _UNK:
            return local
        if _stored(fn.body, expr.id):
            return _UNK
    return _single_literal(tree.body, expr.id, tree)


def _stored(stmts: Sequence[ast.AST], name: str) -> bool:
    return any(isinstance(s, ast.Name) and s.id == name and isinstance(s.ctx, ast.Store) for s in _walk_own(stmts))


def _passed(tree: ast.Module, funcs: dict[str, ast.FunctionDef], fname: str, params: list[str], pname: str,
            depth: int) -> Any:
    """The one value every call ``fname(...)`` of the file passes for ``pname``."""
    values: list[Any] = []
    for caller in [None, *funcs]:
        body = tree.body if caller is None else funcs[caller].body
        for sub in _walk_own(list(body)):
            if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == fname):
                continue
            if any(isinstance(a, ast.Starred) for a in sub.args) or any(k.arg is None for k in sub.keywords):
                return _UNK
            arg = next((k.value for k in sub.keywords if k.arg == pname), None)
            if arg is None and params.index(pname) < len(sub.args):
                arg = sub.args[params.index(pname)]
            if arg is None:
                return _UNK
            values.append(argument_value(tree, caller, arg, depth + 1))
    if not values or any(v is _UNK for v in values) or any(v != values[0] for v in values[1:]):
        return _UNK
    return values[0]
