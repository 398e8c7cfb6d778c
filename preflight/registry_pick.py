"""The class of an object the script builds through a registry table of the project, picked by a key the launch
line decides.

epfml/llm-baselines @ c8a5105 ``src/main.py:51-52``::

    distributed_backend = distributed.make_backend_from_args(args)
    args = distributed_backend.get_adjusted_args_for_process(args)

with ``src/distributed/__init__.py:1-10``::

    from . import ddp, single

    BACKEND_TYPE_TO_MODULE_MAP = {
        "nccl": ddp.DataParallelDistributedBackend,
        None: single.SinlgeNodeBackend,
    }

    def make_backend_from_args(args):
        return BACKEND_TYPE_TO_MODULE_MAP[args.distributed_backend](args)

``--distributed_backend`` is declared ``default=None`` and not given, so the object is a ``SinlgeNodeBackend``,
whose ``get_adjusted_args_for_process`` returns the options untouched (``single.py:17-18``); the DDP backend's,
which rescales ``batch_size`` and ``acc_steps``, does not run. :func:`picked_class` reads, never imports or runs:

- the value the script binds the object to: ``TABLE[key](...)`` with ``TABLE`` a dict literal bound once at the
  top of the script or of a project module it imports by name, or a call of a project function whose body
  (a docstring aside) is one ``return TABLE[key](...)`` over such a table of its own module, the key an
  expression of the function's parameters;
- the key: resolved as the script resolves values (the launch line, the declared defaults), the parameters
  replaced by the call's arguments; an option declared ``default=None`` and given nowhere is the key ``None``;
- the entry: a class of the table's module, or ``module.Class`` of a project module it imports
  (``from . import ddp``), found once.

A key not known, not in the table, or a table filled at run time (``TABLE[name] = cls`` by a decorator) gives
nothing, and the caller keeps every definition it found.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any, Optional

_MAX_BYTES = 500_000
_MISSING = object()


def _parse(path: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_file

    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _table(tree: ast.Module, name: str) -> Optional[ast.Dict]:
    """``name = {...}`` bound once at the top of the module, never written into (``name[k] = v``,
    ``name.update(...)``, ``name.setdefault(...)``) anywhere in it."""
    binds = [n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == name
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(binds) != 1 or not isinstance(binds[0].value, ast.Dict):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and isinstance(node.value, ast.Name) and node.value.id == name:
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("update", "setdefault", "pop", "clear") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return None
    return binds[0].value


def _entry(table: ast.Dict, key: Any) -> Optional[ast.expr]:
    hits = [v for k, v in zip(table.keys, table.values) if isinstance(k, ast.Constant) and k.value == key
            and type(k.value) is type(key)]
    if len(hits) != 1 or any(k is None or not isinstance(k, ast.Constant) for k in table.keys):
        return None
    return hits[0]


def _module_of(path: Path, tree: ast.Module, name: str) -> Optional[Path]:
    """The project module ``name`` is bound to in ``tree`` (``from . import ddp``; ``import pkg.mod as name``)."""
    from preflight.adapters.module_params_imports import _file_of

    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if (a.asname or a.name) != name:
                    continue
                base = path.parent
                for _ in range(max(node.level - 1, 0)):
                    base = base.parent
                dotted = f"{node.module}.{a.name}" if node.module else a.name
                roots = [base] if node.level else [path.parent, *list(path.parents)[1:4]]
                return next((f for f in (_file_of(r, dotted) for r in roots) if f is not None), None)
        if isinstance(node, ast.Import):
            for a in node.names:
                if (a.asname or a.name) == name:
                    return next((f for f in (_file_of(r, a.name) for r in [path.parent, *list(path.parents)[1:4]])
                                 if f is not None), None)
    return None


def _class(path: Path, tree: ast.Module, node: ast.expr) -> Optional[tuple[Path, ast.ClassDef]]:
    """The class an entry of the table names: a class of the module, or ``mod.Class`` of a module it imports,
    or a class it imports by name (``from .x import Class``)."""
    from preflight.adapters.module_params_imports import imported_files

    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        found = _module_of(path, tree, node.value.id)
        sub = _parse(found) if found is not None else None
        if found is None or sub is None:
            return None
        path, tree, name = found, sub, node.attr
    elif isinstance(node, ast.Name):
        name = node.id
    else:
        return None
    own = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(own) == 1:
        return path, own[0]
    for node_ in tree.body:
        if isinstance(node_, ast.ImportFrom) and any((a.asname or a.name) == name and a.name == name
                                                     for a in node_.names):
            files = imported_files(path, ast.Module(body=[node_], type_ignores=[]))
            for f in files:
                sub = _parse(f)
                hits = [n for n in (sub.body if sub else []) if isinstance(n, ast.ClassDef) and n.name == name]
                if len(hits) == 1:
                    return f, hits[0]
    return None


def _key(idx: Any, expr: ast.expr) -> Any:
    """The key's value, or ``_MISSING``."""
    got = idx.resolve(expr)
    if got is not None:
        return got.value
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and idx.options is not None
            and _options_name(idx, expr.value.id)):
        return _MISSING
    # the options object whose passing-through is being decided right now (``args = backend.adjust(args)``):
    # the key is read from the options as declared and given, before that call
    got = idx.options(expr.attr)
    if got is not None:
        return got.value
    none_default = getattr(idx.options, "none_default", None)
    return None if none_default is not None and none_default(expr.attr) else _MISSING


def _options_name(idx: Any, name: str) -> bool:
    """``name`` is bound only as a parameter, by ``parse_args()``, or to a call it is handed to (``args =
    f(args)``): the parsed options, as far as the script shows."""
    bound = idx.assigns.get(name) or []
    return bool(bound) and all(
        b is None or (isinstance(b, ast.Call) and (
            (isinstance(b.func, ast.Attribute) and b.func.attr in ("parse_args", "parse_known_args"))
            or any(isinstance(a, ast.Name) and a.id == name for a in (*b.args, *(k.value for k in b.keywords)))))
        for b in bound)


class _Substitute(ast.NodeTransformer):
    """A parameter of the helper read as the argument the script's call hands it."""

    def __init__(self, env: dict[str, ast.expr]) -> None:
        self.env = env

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.env.get(node.id, node)


def _function_table_call(idx: Any, call: ast.Call) -> Optional[tuple[Path, ast.Module, ast.Call, dict[str, ast.expr]]]:
    """``f(a, ...)`` with ``f`` a project function whose body is one ``return TABLE[key](...)``: its file, tree, that
    inner call and the parameters bound to the call's arguments."""
    from preflight.script_helper_writes import local_module_function

    func = call.func
    dotted = idx.qualify(func.id) if isinstance(func, ast.Name) and func.id in idx.imports else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in idx.imports:
        dotted = f"{idx.qualify(func.value.id)}.{func.attr}"
    found = local_module_function(idx, dotted) if dotted else None
    if found is None:
        return None
    fn, path = found
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call) \
            or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs \
            or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if len(call.args) > len(params):
        return None
    env: dict[str, ast.expr] = dict(zip(params, call.args))
    env.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    tree = _parse(path)
    return (path, tree, body[0].value, env) if tree is not None else None


def picked_class(idx: Any, call: ast.Call) -> Optional[tuple[Path, ast.ClassDef]]:
    """The class ``call`` builds through a registry table (the module comment), or None."""
    script_path = idx.script.source.path
    if script_path is None or idx.script.tree is None:
        return None
    inner: ast.Call = call
    env: dict[str, ast.expr] = {}
    path, tree = Path(str(script_path)), idx.script.tree
    if not isinstance(call.func, ast.Subscript):
        found = _function_table_call(idx, call)
        if found is None:
            return None
        path, tree, inner, env = found
    func = inner.func
    if not (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name)):
        return None
    table = _table(tree, func.value.id)
    if table is None and not env:  # the table imported into the script by name
        from preflight.adapters.module_params_imports import imported_files

        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == func.value.id for a in node.names):
                for f in imported_files(path, ast.Module(body=[node], type_ignores=[])):
                    sub = _parse(f)
                    table = _table(sub, func.value.id) if sub is not None else None
                    if table is not None:
                        path, tree = f, sub
                        break
    if table is None:
        return None
    if env and any(isinstance(n, ast.Name) and n.id not in env for n in ast.walk(func.slice)):
        return None  # the key reads a name of the helper's own module, not only what the call hands it
    key = _key(idx, _Substitute(env).visit(copy.deepcopy(func.slice)) if env else func.slice)
    if key is _MISSING:
        return None
    entry = _entry(table, key)
    return _class(path, tree, entry) if entry is not None else None


def picked_methods(idx: Any, owner: str, method: str) -> Optional[list[Any]]:
    """The definitions of ``owner.method`` when the script builds ``owner`` once, by a call through a registry
    table (other bindings being parameters that receive it) (:func:`picked_class`): the class's own, else the first base of the project that defines it;
    None when the class is not known that way (the caller keeps every definition it found)."""
    bound = [b for b in idx.assigns.get(owner) or [] if b is not None]  # None: a parameter of a function
    if len(bound) != 1 or not isinstance(bound[0], ast.Call):
        return None
    picked = picked_class(idx, bound[0])
    seen = 0
    while picked is not None and seen < 4:
        path, klass = picked
        own = [f for f in klass.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == method]
        if own:
            return own
        tree = _parse(path)
        bases = [b for b in klass.bases if isinstance(b, (ast.Name, ast.Attribute))]
        picked = _class(path, tree, bases[0]) if tree is not None and len(bases) == 1 else None
        seen += 1
    return None
