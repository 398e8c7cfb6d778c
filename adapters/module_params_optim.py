"""An optimizer or learning-rate scheduler built inside a model's ``__init__``, for the module counter
(``module_params_nested``): it holds no parameter of its own, so the model's count is unchanged. Read, never run.

CRIPAC-DIG/SR-GNN @ e21cfa4 ``pytorch_code/model.py:52-53`` (the shape of many recommendation and RL models)::

    self.optimizer = torch.optim.Adam(self.parameters(), lr=opt.lr, weight_decay=opt.l2)
    self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=opt.lr_dc_step, gamma=opt.lr_dc)

Only ``torch.optim.*`` spelled out, or through a name the file binds to ``torch.optim`` /
``torch.optim.lr_scheduler`` (``import torch.optim as optim``, ``from torch import optim``, ``from torch.optim
import lr_scheduler``); a call whose arguments build a layer stays unknown.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.module_params_values import _UNK, _builds

from preflight.analysis.syntax import dotted_name

_OPTIM_MODULES = ("torch.optim", "torch.optim.lr_scheduler")


def _aliases(ctx: Any) -> frozenset[str]:
    """The names this file binds to ``torch.optim`` or its scheduler module (cached on the context)."""
    cached = getattr(ctx, "_optim_aliases", None)
    if cached is not None:
        return frozenset(cached)
    tree = getattr(ctx, "tree", None)
    names: set[str] = set()
    for n in ast.walk(tree) if tree is not None else ():
        if isinstance(n, ast.Import):
            names |= {a.asname for a in n.names if a.name in _OPTIM_MODULES and a.asname}
        elif isinstance(n, ast.ImportFrom) and n.level == 0:
            full = {f"{n.module}.{a.name}": a.asname or a.name for a in n.names}
            names |= {bound for dotted, bound in full.items() if dotted in _OPTIM_MODULES}
    ctx._optim_aliases = frozenset(names)
    return frozenset(names)


def optimizer_call(ctx: Any, node: ast.Call) -> Any:
    """``_UNK`` (a plain object: no parameters) for an optimizer or scheduler built here; None otherwise."""
    name = dotted_name(node.func) or ""
    head = name.split(".", 1)[0]
    if not (name.startswith("torch.optim.") or ("." in name and head in _aliases(ctx))):
        return None
    if any(_builds(a, ctx) for a in [*node.args, *(k.value for k in node.keywords)]):
        return None
    return _UNK
