"""A DataModule whose loaders hard-code a value the config also names: the loader's constant is
what trains. HazyResearch/based @ 32c1bd4e ``train/datamodules/language_modeling_hf.py:281-291``
``DataLoader(dataset, batch_size=batch_size, num_workers=1, ...)`` ("Data is already in memory")
while ``configs/datamodule/wikitext103.yaml:11`` ``num_workers: 64`` only sizes the tokenising
``dataset.map(num_proc=...)``. Only when every ``DataLoader(...)`` of the ``_target_`` class gives
the keyword the same literal; nothing is executed."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.local_trees import parse_project_file


def loader_constant(root: Path, target: Any, keyword: str) -> Optional[tuple[Any, str]]:
    """(the literal, ``file:line``) every DataLoader of the local class ``target`` passes as ``keyword``."""
    if not isinstance(target, str) or "." not in target:
        return None
    from preflight.adapters.module_params import local_file

    # the module path may start at the repository, above the folder the job runs in (``train.datamodules...``
    # run from ``train/``)
    file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
    if file is None:
        return None
    tree = parse_project_file(file)
    if tree is None:
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == target.rsplit(".", 1)[-1]), None)
    if cls is None:
        return None
    values: list[tuple[Any, int]] = []
    for node in ast.walk(cls):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name != "DataLoader":
            continue
        kw = next((k.value for k in node.keywords if k.arg == keyword), None)
        if not isinstance(kw, ast.Constant) or any(k.arg is None for k in node.keywords):
            return None  # a loader that takes it from elsewhere (or a ``**kwargs``): the config may decide
        values.append((kw.value, kw.lineno))
    if not values or len({repr(v) for v, _ in values}) != 1:
        return None
    try:
        shown = file.resolve().relative_to(root.resolve().parent).as_posix()
    except ValueError:
        shown = file.name
    return values[0][0], f"{shown}:{values[0][1]}"
