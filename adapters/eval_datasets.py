"""Loaders over an evaluation dataset, told by the dataset they read.

A helper that builds both loaders often returns them together, so neither call has a name of
its own to say which one trains (``return (DataLoader(train, batch_size=batch_size, shuffle=True),
DataLoader(test, batch_size=256))``, the CIFAR helpers of many projects; held-out-27's Hydra CIFAR
program). The dataset argument still says it: a name such as ``test``/``val_set``/``eval_ds``, or
a dataset built with ``train=False`` or ``split="test"``. Such a loader's batch size is not the
training micro-batch, as long as another candidate loader is left to be the training one.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

_EVAL = re.compile(r"val|eval|test|dev(?!ice)", re.I)


def _name(expr: Optional[ast.expr]) -> Optional[str]:
    """The name a dataset argument reads: ``test``, ``self.val_set``, ``splits["test"]``."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.slice.value
    return None


def _evaluation_name(name: Optional[str]) -> bool:
    return bool(name) and "train" not in (name or "").lower() and bool(_EVAL.search(name or ""))


def _built_for_evaluation(call: ast.Call) -> bool:
    """``CIFAR10(root, train=False, ...)``, ``load_dataset(..., split="test")``."""
    for kw in call.keywords:
        value = kw.value
        if kw.arg == "train" and isinstance(value, ast.Constant) and value.value is False:
            return True
        if kw.arg == "split" and isinstance(value, ast.Constant) and isinstance(value.value, str) \
                and _evaluation_name(value.value):
            return True
    return False


def evaluation_dataset(idx: Any, site: Any) -> bool:
    """The loader at ``site`` reads an evaluation dataset (its name, or how it was built)."""
    expr = site.arg(0, "dataset")
    if _evaluation_name(_name(expr)):
        return True
    if isinstance(expr, ast.Name):
        bound = idx.assigns.get(expr.id, [])
        expr = bound[0] if len(bound) == 1 else None
    return isinstance(expr, ast.Call) and _built_for_evaluation(expr)


def without_evaluation_datasets(idx: Any, sites: list[Any]) -> list[Any]:
    """``sites`` less the loaders over an evaluation dataset, when at least one other is left."""
    kept = [s for s in sites if not evaluation_dataset(idx, s)]
    return kept if kept and len(kept) < len(sites) else sites
