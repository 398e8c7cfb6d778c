"""Shared by the Lightning code rules (PF137, PF291, PF292, PF567, PF568, PF680): whether a file imports
Lightning, the file's LightningModule classes, its ``self.log`` calls averaged without a batch size."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext

_LIGHTNING = ("pytorch_lightning", "lightning")


def imports_lightning(ctx: FileContext, tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in _LIGHTNING for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in _LIGHTNING:
            return True
    return False


def lightning_classes(ctx: FileContext) -> set[str]:
    """Classes of the file that derive from ``LightningModule``, directly or through another
    class of the file."""
    names: set[str] = set()
    classes = list(ctx.nodes(ast.ClassDef))
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name in names:
                continue
            if any(ast.unparse(b).endswith("LightningModule") or ast.unparse(b) in names for b in cls.bases):
                names.add(cls.name)
                changed = True
    return names


def log_calls(fn: ast.AST) -> list[ast.Call]:
    """``self.log(...)`` / ``self.log_dict(...)`` calls under ``fn``."""
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("log", "log_dict") and isinstance(n.func.value, ast.Name)
            and n.func.value.id == "self"]


def _keyword(call: ast.Call, name: str) -> Optional[ast.keyword]:
    return next((k for k in call.keywords if k.arg == name), None)


def _constant(call: ast.Call, name: str) -> object:
    kw = _keyword(call, name)
    return kw.value.value if kw is not None and isinstance(kw.value, ast.Constant) else "<unset>"


def _metric_value(value: Optional[ast.AST]) -> bool:
    """``self.val_acc`` / ``{"acc": self.acc}``: a torchmetrics object (not weighted by batch size)."""
    def is_attr(v: ast.AST) -> bool:
        return isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self"
    if value is None:
        return False
    if is_attr(value):
        return True
    if isinstance(value, ast.Dict):
        return bool(value.values) and all(is_attr(v) for v in value.values)
    return False


def averaged_without_size(call: ast.Call, epoch_default: bool) -> bool:
    """A log call averaged over the epoch (``on_epoch`` given True, or defaulting to it where
    ``epoch_default``) with the mean reduction, no ``batch_size=`` and a value that is not a torchmetrics
    object."""
    if _keyword(call, "batch_size") is not None or any(k.arg is None for k in call.keywords):
        return False
    on_epoch = _constant(call, "on_epoch")
    if on_epoch == "<unset>":
        if not epoch_default:
            return False
    elif on_epoch is not True:
        return False
    if _constant(call, "reduce_fx") not in ("<unset>", "mean"):
        return False
    index = 1 if call.func.attr == "log" else 0  # type: ignore[attr-defined]
    value = call.args[index] if len(call.args) > index else None
    if value is None:
        kw = _keyword(call, "value" if index else "dictionary")
        value = kw.value if kw is not None else None
    return not _metric_value(value)
