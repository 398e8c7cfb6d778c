"""A parameter the function only casts in place (``fp16_run = bool(fp16_run)``) still holds the value its
caller gave (read by :mod:`preflight.adapters.config_object_flow`; nothing is imported or executed).

NVIDIA/flowtron @ d149bc4 ``train.py:205-211``: ``def train(..., fp16_run, ...)`` called as
``train(n_gpus, rank, **train_config)``, first ``fp16_run = bool(fp16_run)``, then
``amp.GradScaler(enabled=fp16_run)`` and ``amp.autocast(enabled=fp16_run)``. A store of the name that is
anything but ``name = bool(name)`` / ``int(name)`` / ``float(name)`` / ``str(name)`` (or a copy of the same keys:
``copy.deepcopy(name)``, ml_collections' ``FrozenConfigDict(name)`` / ``ConfigDict(name)``) keeps it rebound (a new
value). The value read is the caller's, uncast: a reading that wants a bool or an int checks the type it
gets, so a value the cast would change (``bool(1)``, ``int("8")``) is not read as that type, never misread.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

_CASTS = ("bool", "int", "float", "str")
_COPIES = ("copy.deepcopy", "copy.copy", "deepcopy",
           # ``config = ml_collections.FrozenConfigDict(config)``: the same keys, frozen (baofff/U-ViT @ ce55170
           # train_ldm.py:35); ``ConfigDict(config)`` likewise copies the keys
           "ml_collections.FrozenConfigDict", "FrozenConfigDict", "ml_collections.ConfigDict", "ConfigDict")


def _callee(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def self_casts(nodes: Iterable[ast.AST]) -> set[str]:
    """Names every store of which (among ``nodes``, a function's own nodes) is ``name = cast(name)``."""
    nodes = list(nodes)
    cast: set[str] = set()
    targets: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, ast.Call) and (_callee(value.func) in _CASTS or _callee(value.func) in _COPIES) \
                    and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Name) \
                    and value.args[0].id == name:
                cast.add(name)
                targets.add(id(node.targets[0]))
    other = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
             and id(n) not in targets}
    return cast - other
