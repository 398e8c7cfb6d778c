"""The names a module's import statements bind, mapped to what they name (``import numpy as np``
-> ``np: numpy``; ``import os.path`` -> ``os: os``; ``from torch import optim as o`` -> ``o:
torch.optim``). Relative imports are left out: they name the project's own modules."""

from __future__ import annotations

import ast
from typing import Iterable


def import_names(nodes: Iterable[ast.AST]) -> dict[str, str]:
    """Bound name -> dotted target for every ``import``/absolute ``from ... import`` among ``nodes``
    (pass ``tree.body`` for module-level imports only, ``ast.walk(tree)`` for every import)."""
    out: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out
