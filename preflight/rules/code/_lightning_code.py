"""Shared by the Lightning code rules (PF291, PF292, PF567, PF568): whether a file imports Lightning, the
file's LightningModule classes."""

from __future__ import annotations

import ast

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
