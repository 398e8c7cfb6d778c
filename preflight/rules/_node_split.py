"""Datasets split per process by ``datasets.distributed.split_dataset_by_node``: shared by PF447
(a split dataset's loader prepared, so sharded twice) and PF402 (a split dataset's loader left
unprepared on purpose)."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.rules._pf414_support import call_last


def split_by_node(fn: ast.AST, loader: ast.Call) -> Optional[ast.Call]:
    """The ``datasets.distributed.split_dataset_by_node(...)`` call the loader's dataset comes from:
    inline, or through the names assigned from it (``stream = split_dataset_by_node(stream, ...)``,
    ``stream = stream.map(tokenize)``), followed to a fixpoint in the function."""
    data = loader.args[0] if loader.args else next((k.value for k in loader.keywords if k.arg == "dataset"), None)
    if data is None:
        return None
    splits: dict[str, ast.Call] = {}
    assigns = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name)]

    def split_in(value: ast.AST) -> Optional[ast.Call]:
        for n in ast.walk(value):
            if isinstance(n, ast.Call) and call_last(n) == "split_dataset_by_node":
                return n
            if isinstance(n, ast.Name) and n.id in splits:
                return splits[n.id]
        return None

    changed = True
    while changed:
        changed = False
        for node in assigns:
            target = node.targets[0].id  # type: ignore[attr-defined]
            if target in splits:
                continue
            found = split_in(node.value)
            if found is not None:
                splits[target] = found
                changed = True
    return split_in(data)
