"""A repository whose root is itself the package its entry script imports by name, the clone's folder name
not being that name here (zhangruochi/pseudoESM @ 859e25a: ``__init__.py`` at the root, ``train.py:41``
``sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))`` then ``train.py:58``
``from pseudoESM.trainer import Trainer``; the code runs only from a clone named ``pseudoESM``, while a CI
checkout or an audit copy carries another name). The package folder is read as that package when the script's
folder is a package (``__init__.py``, up to its topmost package folder) and the script puts the folder above
it on ``sys.path`` with ``dirname`` (or ``.parent``) taken of ``__file__`` once per level; an import whose
first part is no module or folder of the project then resolves its rest inside the package folder. Nothing
is imported."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Optional


def _ups(node: ast.AST) -> Optional[int]:
    """How many folders up from ``__file__`` the expression goes: ``os.path.dirname(...)`` and ``.parent``
    count one each; ``os.path.abspath``/``realpath``, ``Path(...)``, ``str(...)`` and ``.resolve()`` none."""
    n = 0
    while True:
        if isinstance(node, ast.Name) and node.id == "__file__":
            return n
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            n, node = n + 1, node.value
            continue
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if name == "dirname":
                n += 1
            elif name not in ("abspath", "realpath", "Path", "str"):
                return None
            node = node.args[0]
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "resolve" \
                and not node.args and not node.keywords:
            node = node.func.value
            continue
        return None


def self_package_root(script: Path, tree: ast.Module) -> Optional[Path]:
    """The package folder the script's imports may name by another name, or None."""
    try:
        pkg = script.resolve().parent
        if not (pkg / "__init__.py").is_file():
            return None
        depth = 0
        while (pkg.parent / "__init__.py").is_file() and pkg.parent != pkg and depth < 4:
            pkg, depth = pkg.parent, depth + 1
    except OSError:
        return None
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            continue
        call = stmt.value
        fn = call.func
        if not (isinstance(fn, ast.Attribute) and fn.attr in ("append", "insert")
                and isinstance(fn.value, ast.Attribute) and fn.value.attr == "path"
                and isinstance(fn.value.value, ast.Name) and fn.value.value.id == "sys"):
            continue
        arg = call.args[-1] if call.args and len(call.args) == (1 if fn.attr == "append" else 2) else None
        if arg is not None and _ups(arg) == depth + 2:
            return pkg
    return None


def self_package_rest(rel: str, package: Optional[Path], bases: Iterable[Path]) -> Optional[Path]:
    """The file ``rel`` (``name/mod/sub``) names inside ``package`` when ``name`` is no module or folder of
    the project's ``bases``: ``package/mod/sub.py`` or ``package/mod/sub/__init__.py``, else None."""
    head, _, rest = rel.partition("/")
    if package is None or not rest or not head:
        return None
    try:
        if any((b / f"{head}.py").is_file() or (b / head).is_dir() for b in bases):
            return None
        for cand in (package / f"{rest}.py", package / rest / "__init__.py"):
            if cand.is_file():
                return cand
    except OSError:
        return None
    return None
