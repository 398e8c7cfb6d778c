"""The model a project class's builder method picks from a table of model classes by a configuration key and
builds with sizes from the configuration, counted: a reading of :mod:`preflight.adapters.config_object_reads`.

zhouhaoyi/Informer2020 @ 29f2a73 ``exp/exp_informer.py:25-56``: ``model_dict = {'informer': Informer,
'informerstack': InformerStack}`` then ``model = model_dict[self.args.model](self.args.enc_in, ...,
self.args.d_ff, self.args.dropout, self.args.attn, ..., self.device).float()`` (positional arguments, the
options the experiment class holds), ``if self.args.use_multi_gpu and self.args.use_gpu: model =
nn.DataParallel(model, ...)`` and ``return model``; ``models/model.py:11-80`` builds ``Informer`` from
classes of ``models/encoder.py``, ``attn.py``, ``decoder.py`` and ``embed.py``.

Read where the call runs: the table a dict literal bound once in the function, its key the configuration's
value; the result bound to a name (through ``.float()``/``.cuda()``/``.to(...)``/``.train()``), rebound
only to a ``DataParallel``/``DistributedDataParallel`` wrap of itself, and what every ``return`` of the
function gives. Each argument is the configuration's value, a literal, else unknown (fine until a size
needs it); at least one size from the configuration. The class is counted by
``module_params_nested.count_class`` over its module and the project classes it imports
(``module_params_imports.with_imports``); anything it cannot follow leaves the count unknown.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

_CHAINED = ("float", "cuda", "to", "train", "double")
_WRAPS = ("DataParallel", "DistributedDataParallel")


def _class_of(call: ast.Call, fn: ast.FunctionDef, reader: Any, modules: Any) -> Optional[tuple[str, ast.ClassDef]]:
    f = call.func
    if not (isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name)):
        return None
    tables = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == f.value.id]
    if len(tables) != 1 or not isinstance(tables[0], ast.Dict):
        return None
    key = reader.ev(f.slice)
    if key is None or key.path is None or not isinstance(key.value, str):
        return None
    for k, v in zip(tables[0].keys, tables[0].values):
        if isinstance(k, ast.Constant) and k.value == key.value and isinstance(v, ast.Name):
            return modules.klass(v.id)
    return None


def _bound_and_returned(call: ast.Call, fn: ast.FunctionDef, parents: dict[int, ast.AST]) -> bool:
    """``name = call[.float()...]`` once, rebound only to wraps of itself, and every return ``return name``."""
    node: ast.AST = call
    parent = parents.get(id(node))
    while isinstance(parent, ast.Attribute) and parent.attr in _CHAINED:
        outer = parents.get(id(parent))
        if not (isinstance(outer, ast.Call) and outer.func is parent):
            return False
        node, parent = outer, parents.get(id(outer))
    if not (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    for other in ast.walk(fn):
        if other is parent or not isinstance(other, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            continue
        targets = other.targets if isinstance(other, ast.Assign) else [other.target]
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        value = other.value
        wrapped = isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Name) \
            and value.args[0].id == name and (
                (isinstance(value.func, ast.Attribute) and value.func.attr in _WRAPS)
                or (isinstance(value.func, ast.Name) and value.func.id in _WRAPS))
        if not wrapped:
            return False
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == name for r in returns)


def table_count(call: ast.Call, fn: Any, parents: dict[int, ast.AST], reader: Any, modules: Any,
                runs: Callable[[ast.AST], bool]) -> Optional[tuple[int, str, str]]:
    """(parameters, class, detail) of the model ``call`` builds, or None."""
    from preflight.adapters.module_params_imports import with_imports
    from preflight.adapters.module_params_nested import UNKNOWN, count_class

    if not isinstance(fn, ast.FunctionDef) or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords) or not runs(call):
        return None
    got = _class_of(call, fn, reader, modules)
    if got is None or not _bound_and_returned(call, fn, parents):
        return None
    shown, cls = got
    held = next(((p, t) for s, p, t in modules.trees if s == shown), None)
    if held is None:
        return None
    from_config = 0

    def value(node: ast.AST) -> Any:
        nonlocal from_config
        val = reader.ev(node)
        if val is not None and val.path is not None and not isinstance(val.value, dict):
            from_config += 1
            return val.value
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return UNKNOWN

    args = [value(a) for a in call.args]
    kwargs = {str(k.arg): value(k.value) for k in call.keywords}
    if not from_config:
        return None
    try:
        tree = with_imports(Path(held[0]), held[1])
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    counted = count_class(tree, cls.name, kwargs, args)
    if counted is None:
        return None
    total, layers = counted
    detail = (f"{cls.name}(...) picked from a table by the configuration in {fn.name}() and returned, "
              f"{from_config} argument(s) from the configuration: {total:,} parameters of {len(layers)} layers "
              f"({shown}:{cls.lineno})")
    return total, cls.name, detail
