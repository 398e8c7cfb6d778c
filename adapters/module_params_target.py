"""A config ``_target_`` class of the project counted by the nested module counter, where the flat
counter of :mod:`preflight.adapters.module_params` (layers written one by one in ``__init__``) gives up.

Hydra projects name their network by a dotted ``_target_`` whose sizes are the node's keys, and build it
from blocks: layers appended in a ``for`` loop, submodules of other classes, a package ``__init__`` that
re-exports the class (donglinkang2021/MinVQVAE @ the benchmark's commit ``configs/model/vanilla_vae.yaml``
``_target_: minvqvae.models.VanillaVAE`` with ``hidden_dims: [32, 64, 128, 256, 512]``,
``minvqvae/models/__init__.py`` ``from .vanilla_vae import VanillaVAE``, ``vanilla_vae.py:8-65`` an encoder
and a decoder of convolutions appended in loops). Here:

- the class is looked up in the module the target names, or, where that module (a package's ``__init__``)
  only imports it, in the project module it imports it from (``from .m import Name`` / ``from pkg.m import
  Name``, three hops at most);
- it is counted by ``module_params_nested.count_class`` on its module with the project classes that module
  imports (:func:`preflight.adapters.module_params_imports.with_imports`), with the node's keys as keywords;
  a key whose value is not known is ``UNKNOWN`` (fine until a size needs it). Anything the counter cannot
  follow states nothing. Read, never imported.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

_HOPS = 3
_MAX_BYTES = 500_000


def _parse(path: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_project_file

    try:
        return parse_project_file(path, _MAX_BYTES)
    except (SyntaxError, ValueError, OSError):
        return None


def imported_from(path: Path, tree: ast.Module, name: str) -> Optional[Path]:
    """The project file that ``tree`` (the module at ``path``) imports ``name`` from, by its own name."""
    from preflight.local_trees import module_file

    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if not any(a.name == name and (a.asname is None or a.asname == name) for a in node.names):
            continue
        if node.level >= 1:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            roots = [base]
        else:
            roots = [path.parent, *list(path.parents)[1:4]]
        for root in roots:
            found = module_file(root, node.module)
            if found is not None:
                return found
        return None
    return None


def defining_module(path: Path, name: str) -> Optional[tuple[Path, ast.Module, ast.ClassDef]]:
    """(file, tree, class) where class ``name`` is defined: the module at ``path`` or the one it imports it from."""
    for _ in range(_HOPS + 1):
        tree = _parse(path)
        if tree is None:
            return None
        cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if cls is not None:
            return path, tree, cls
        if any(isinstance(n, (ast.Assign, ast.FunctionDef)) and name in _bound(n) for n in tree.body):
            return None  # the name is bound otherwise here
        nxt = imported_from(path, tree, name)
        if nxt is None or nxt == path:
            return None
        path = nxt
    return None


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.FunctionDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    return set()


def count_nested_target(path: Path, name: str, kwargs: dict[str, Any]) -> Optional[tuple[int, str, int, list[str]]]:
    """(count, file, class line, layers) of class ``name`` reached from the module file ``path``, or None."""
    from preflight.adapters.module_params_imports import with_imports
    from preflight.adapters.module_params_nested import count_class

    found = defining_module(path, name)
    if found is None:
        return None
    file, tree, cls = found
    got = count_class(with_imports(file, tree), name, dict(kwargs))
    if got is None:
        return None
    return got[0], str(file), cls.lineno, got[1]


#: the node names of a network a config builds (``model:``, lightning-hydra-template's ``model.net:``)
NET_KEYS = ("model", "net", "network")


def _plain(value: Any, unknown: type, depth: int = 0) -> Any:
    """A composed value as the class receives it: a nested ``_target_`` node is an object built by Hydra, and a
    value not known statically is ``UNKNOWN``."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if depth > 20 or isinstance(value, unknown):
        return UNKNOWN
    if isinstance(value, dict):
        if "_target_" in value:
            return UNKNOWN
        return {k: _plain(v, unknown, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, unknown, depth + 1) for v in value]
    return value


def count_node(root: Path, path: tuple, node: dict, value: Any, unknown: type) -> Optional[tuple[int, str, int, list[str]]]:
    """The count of the ``_target_`` node at ``path`` (a network's node, :data:`NET_KEYS`) by the nested
    counter; ``value(path)`` reads the composed config. A node built partially (``_partial_``) or with
    positional ``_args_`` states nothing."""
    target = node.get("_target_")
    if not path or path[-1] not in NET_KEYS or not isinstance(target, str) or node.get("_partial_") is not None \
            or "_args_" in node:
        return None
    module, _, name = target.rpartition(".")
    if not module or not name:
        return None
    kwargs = {k: _plain(value((*path, k)), unknown) for k in node if isinstance(k, str) and not k.startswith("_")}
    from preflight.local_trees import module_file

    for base in (root, root / "src"):
        file = module_file(base, module)
        if file is not None:
            return count_nested_target(file, name, kwargs)
    return None
