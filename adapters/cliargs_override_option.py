"""A YAML/JSON file named by an option of the launch line whose every key a project helper ``setattr``s
over the parsed options (read by :mod:`preflight.adapters.cliargs_override_file`; nothing is imported or
run).

Guitaricet/relora @ 176f376 ``torchrun_main.py:57,136-138`` ``parser.add_argument("--training_config",
default=None)``, ``args = parser.parse_args(args)``, ``args = args_utils.check_args_torchrun_main(args)``,
whose body (``peft_pretraining/args_utils.py:8-21``) is ``if args.training_config is not None: ... with
open(args.training_config) as f: training_config = yaml.safe_load(f)`` then ``for k, v in
training_config.items(): if k == "lr": v = float(v); setattr(args, k, v)``. Launched with ``--training_config
training_configs/1B_v1.0.yaml`` every key of the file replaces the option's value (``max_length: 2048`` over
the argparse default 512, ``use_peft: true`` over False).

Read when: a call ``H(ns)`` (its one argument the parsed namespace; at the top level, under ``if __name__``
or in a function's straight-line body) reaches a helper ``def H(target)`` of the script or a project module
whose loop ``for K, V in CFG.items():`` has ``setattr(target, K, V)`` as a statement of its own body (not
under an ``if``: a guarded ``setattr`` is :mod:`preflight.adapters.cliargs_fill_file`'s), ``CFG`` bound to
``yaml.safe_load(f)``/``json.load(f)`` with ``f`` from ``open(target.X)``, each ``if`` around the loop
``target.X`` / ``target.X is not None``, and ``X``'s value (the line's) a ``.yaml``/``.yml``/``.json`` file
of the project. A ``V`` rebound in the loop only by ``float(V)``/``int(V)``/``str(V)`` keeps the file's value
(cast); any other rebinding, a ``K`` rebound, or a loop that ``continue``s/``break``s: nothing read.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.plan import Source

_LOADERS = ("load", "safe_load", "full_load", "unsafe_load")
_CASTS = {"float": float, "int": int, "str": str}


def _attr_of(node: ast.AST, target: str) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == target:
        return node.attr
    return None


def _guard_option(test: ast.expr, target: str) -> Optional[str]:
    """X of ``target.X`` or ``target.X is not None``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return _attr_of(test.left, target)
    return _attr_of(test, target)


def _loops(stmts: list[ast.stmt], guards: list[ast.expr]) -> list[tuple[ast.For, list[ast.expr]]]:
    """The ``for`` loops of a body reached through ``if``/``with`` blocks only, with the ``if`` tests."""
    out: list[tuple[ast.For, list[ast.expr]]] = []
    for stmt in stmts:
        if isinstance(stmt, ast.For):
            out.append((stmt, guards))
        elif isinstance(stmt, ast.If):
            out += _loops(stmt.body, [*guards, stmt.test])
        elif isinstance(stmt, ast.With):
            out += _loops(stmt.body, guards)
    return out


def _cast_of(loop: ast.For, key: str, val: str) -> Optional[tuple[Optional[str], Optional[str]]]:
    """(key the cast is for, cast name) of a loop body ``[if K == "k": V = float(V)]; setattr(target, K, V)``;
    (None, None) without a cast; None for any other body."""
    cast: tuple[Optional[str], Optional[str]] = (None, None)
    for stmt in loop.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            continue
        if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 and cast == (None, None):
            test, body = stmt.test, stmt.body[0]
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
                    and isinstance(test.left, ast.Name) and test.left.id == key \
                    and isinstance(test.comparators[0], ast.Constant) and isinstance(test.comparators[0].value, str) \
                    and isinstance(body, ast.Assign) and len(body.targets) == 1 \
                    and isinstance(body.targets[0], ast.Name) and body.targets[0].id == val \
                    and isinstance(body.value, ast.Call) and isinstance(body.value.func, ast.Name) \
                    and body.value.func.id in _CASTS and len(body.value.args) == 1 \
                    and isinstance(body.value.args[0], ast.Name) and body.value.args[0].id == val:
                cast = (test.comparators[0].value, body.value.func.id)
                continue
        return None
    return cast


def _setattr_stmt(loop: ast.For, target: str, key: str, val: str) -> bool:
    return any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
               and s.value.func.id == "setattr" and len(s.value.args) == 3
               and _attr_of(ast.Attribute(value=s.value.args[0], attr="_"), target) is not None
               and isinstance(s.value.args[1], ast.Name) and s.value.args[1].id == key
               and isinstance(s.value.args[2], ast.Name) and s.value.args[2].id == val for s in loop.body)


def _file_option(fn: ast.FunctionDef, target: str, cfg: str) -> Optional[str]:
    """X of ``cfg = yaml.safe_load(f)`` with ``f`` from ``open(target.X)`` (``with ... as f``), ``cfg`` bound once."""
    handles: dict[str, str] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name) \
                and isinstance(node.context_expr, ast.Call) and isinstance(node.context_expr.func, ast.Name) \
                and node.context_expr.func.id == "open" and node.context_expr.args:
            opt = _attr_of(node.context_expr.args[0], target)
            if opt is not None:
                handles[node.optional_vars.id] = opt
    binds = [n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == cfg
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(binds) != 1 or not isinstance(binds[0], ast.Assign):
        return None
    value = binds[0].value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _LOADERS \
            and isinstance(value.func.value, ast.Name) and value.func.value.id in ("yaml", "json") and value.args \
            and isinstance(value.args[0], ast.Name):
        return handles.get(value.args[0].id)
    return None


def sets_file_keys(fn: ast.FunctionDef, target: str) -> Optional[str]:
    """X where ``fn`` has the module docstring's loop: ``setattr(target, K, V)`` for every key of a file
    ``open(target.X)`` names, so that any attribute of ``target`` may be the file's; else None."""
    for loop, _ in _loops(fn.body, []):
        if not (isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Attribute)
                and loop.iter.func.attr == "items" and isinstance(loop.iter.func.value, ast.Name)
                and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
                and all(isinstance(e, ast.Name) for e in loop.target.elts)):
            continue
        key, val = (e.id for e in loop.target.elts)  # type: ignore[attr-defined]
        opt = _file_option(fn, target, loop.iter.func.value.id) if _setattr_stmt(loop, target, key, val) else None
        if opt is not None:
            return opt
    return None


def _reached(tree: ast.Module, call: ast.Call) -> bool:
    """The call is a statement ``ns = H(ns)`` / ``H(ns)`` of the module's top level, its ``if __name__`` block
    or a top-level function's straight-line body."""
    def straight(stmts: list[ast.stmt], top: bool) -> bool:
        for stmt in stmts:
            if not any(n is call for n in ast.walk(stmt)):
                continue
            if isinstance(stmt, (ast.Expr, ast.Assign)):
                return stmt.value is call
            if isinstance(stmt, ast.Return):
                return stmt.value is call
            if top and isinstance(stmt, ast.FunctionDef):
                return straight(stmt.body, False)
            if top and isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) \
                    and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == "__name__":
                return straight(stmt.body, False)
            return False
        return False
    return straight(tree.body, True)


def option_file_values(project: Any, script: Any, idx: Any,
                       option: Callable[[str], Any]) -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the options the file replaces (module docstring)."""
    from preflight.adapters.cliargs_override_file import _file_values, _helper

    out: dict[str, tuple[Any, Source]] = {}
    parsed = set(idx.parsed_args)
    for node in ast.walk(script.tree):
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], ast.Name) and node.args[0].id in parsed):
            continue
        found = _helper(idx, script, node)
        if found is None:
            continue
        fn, where = found
        params = [a.arg for a in fn.args.args]
        if len(params) != 1 or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            continue
        target = params[0]
        for loop, guards in _loops(fn.body, []):
            if not (isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Attribute)
                    and loop.iter.func.attr == "items" and not loop.iter.args
                    and isinstance(loop.iter.func.value, ast.Name) and isinstance(loop.target, ast.Tuple)
                    and len(loop.target.elts) == 2 and all(isinstance(e, ast.Name) for e in loop.target.elts)):
                continue
            key, val = (e.id for e in loop.target.elts)  # type: ignore[attr-defined]
            cast = _cast_of(loop, key, val)
            if cast is None or not _setattr_stmt(loop, target, key, val):
                continue
            opt = _file_option(fn, target, loop.iter.func.value.id)
            if opt is None or any(_guard_option(g, target) != opt for g in guards):
                continue
            path = option(opt)
            if not isinstance(path, str) or not path.lower().endswith((".yml", ".yaml", ".json")) \
                    or not _reached(script.tree, node):
                continue
            values = _file_values(project, script, path, None, option)
            if values is None:
                continue
            shown, loaded, data, _ = values
            call_at = f"{script.source.display}:{node.lineno}"
            for k, v in data.items():
                if not isinstance(k, str) or isinstance(v, (dict, list)):
                    continue
                if k == cast[0] and cast[1] is not None:
                    try:
                        v = _CASTS[cast[1]](v)
                    except (TypeError, ValueError):
                        continue
                detail = (f"{fn.name}({node.args[0].id}) ({call_at}; {where}:{fn.lineno}) sets every key of "
                          f"{shown} (--{opt}) over the parsed options")
                out[k] = (v, Source("config", shown, loaded.lines.get((k,)), k, detail))
    return out
