"""Shared helpers of PF276-PF280: Lightning classes and multi-process Trainers of one file."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import calls, qualify
from preflight.rules.code._metric_sync import is_lightning_qual, multi_process_arg

LIGHTNING_MODULES = frozenset({"LightningModule", "LightningDataModule"})


def lightning_classes(ctx: FileContext, kinds: frozenset[str] = LIGHTNING_MODULES) -> list[ast.ClassDef]:
    """Classes of the file that derive from a Lightning ``kinds`` class (directly, or through
    another class of the file)."""
    classes = list(ctx.nodes(ast.ClassDef))
    found: dict[str, ast.ClassDef] = {}
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name in found:
                continue
            for base in cls.bases:
                qual = qualify(ctx, base)
                if (is_lightning_qual(qual) and qual.rsplit(".", 1)[-1] in kinds) or (
                        isinstance(base, ast.Name) and base.id in found):
                    found[cls.name] = cls
                    changed = True
                    break
    return [c for c in classes if c.name in found]


def method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def multi_process_trainer(ctx: FileContext) -> Optional[tuple[ast.Call, ast.AST]]:
    """The file's one Lightning ``Trainer`` when it runs several processes, with the argument
    that says so (``devices=4``, ``strategy="ddp"``, ``num_nodes=2``)."""
    trainers = [c for c, q in calls(ctx) if q.rsplit(".", 1)[-1] == "Trainer" and is_lightning_qual(q)]
    if len(trainers) != 1:
        return None
    why = multi_process_arg(ctx, trainers[0])
    return None if why is None else (trainers[0], why)
