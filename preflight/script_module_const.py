"""``config.model`` where ``config`` is a local module the script imports whole (``import config``) and that
module binds ``model`` once, at its top level, to a literal: the value (guoyang9/NCF @ 89ff06ff ``main.py:14``
``import config``, ``config.py:6`` ``model = 'NeuMF-end'``, ``main.py:97-100`` ``if config.model == 'NeuMF-pre':
optimizer = optim.SGD(...)`` ``else: optimizer = optim.Adam(...)``). The module is read, never imported. Not
read: a module the script (or anything) assigns the attribute on, a name bound twice in the module, a name
declared ``global`` in one of its functions, a value that is not a literal, a package (``config/``) or a
module not beside the script.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.script_index import Resolved

_MAX_BYTES = 200_000


def _imported_as(tree: ast.AST, name: str) -> Optional[str]:
    """The module a top-level ``import X`` / ``import X as name`` binds to ``name`` (no dotted module)."""
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if (alias.asname or alias.name) == name and "." not in alias.name:
                    return alias.name
    return None


def _stored_on(tree: ast.AST, name: str, attr: str) -> bool:
    return any(isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.attr == attr
               and isinstance(n.value, ast.Name) and n.value.id == name for n in ast.walk(tree))


def module_constant(idx: Any, expr: ast.Attribute) -> Optional[Resolved]:
    """The value of ``module.attr``, or None (read once per index, module and name)."""
    from preflight.script_index import Resolved

    if not isinstance(expr.value, ast.Name) or idx.assigns.get(expr.value.id):
        return None
    cache: dict[tuple[str, str], Optional[tuple[Any, str, str]]] = idx.__dict__.setdefault("_module_constants", {})
    key = (expr.value.id, expr.attr)
    if key not in cache:
        cache[key] = _read(idx, expr.value.id, expr.attr)
    found = cache[key]
    if found is None:
        return None
    value, where, detail = found
    return Resolved(value, "code", getattr(expr, "lineno", None), where, detail)


def _read(idx: Any, name: str, attr: str) -> Optional[tuple[Any, str, str]]:
    tree = idx.script.tree
    module = _imported_as(tree, name)
    path = getattr(idx.script.source, "path", None)
    if module is None or path is None or _stored_on(tree, name, attr):
        return None
    file = Path(str(path)).resolve().parent / f"{module}.py"
    try:
        if not file.is_file() or file.stat().st_size > _MAX_BYTES:
            return None
        mod = ast.parse(read_text_limited(file, errors="replace"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    binds = [s for s in mod.body if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             and any(isinstance(t, ast.Name) and t.id == attr
                     for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
    if len(binds) != 1 or not isinstance(binds[0], ast.Assign) or len(binds[0].targets) != 1:
        return None
    if any(isinstance(n, ast.Global) and attr in n.names for n in ast.walk(mod)):
        return None
    try:
        value = ast.literal_eval(binds[0].value)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None
    return value, f"{module}.{attr}", f"{module}.py:{binds[0].lineno} {attr} = {value!r}"
