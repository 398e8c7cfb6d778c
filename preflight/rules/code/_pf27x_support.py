"""Shared helpers of PF276-PF280: Lightning classes and multi-process Trainers of one file."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

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


# -- a training_step's own body: shared by PF277 (a skip on some ranks) and PF1231 (a disconnected loss) --------------

def own_nodes(fn: ast.FunctionDef) -> Iterable[ast.AST]:
    """The nodes of ``fn``'s body, nested functions and classes left out."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def none_return(node: ast.AST) -> bool:
    """``return`` or ``return None``."""
    return isinstance(node, ast.Return) and (
        node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None))


_SYNC_WORDS = ("reduce", "gather", "broadcast", "sync", "world", "rank")


def synced(test: ast.expr) -> bool:
    """The condition is shared by the ranks (``reduce_boolean_decision``, an all-reduced flag) or
    decided per rank on purpose (``global_rank``)."""
    text = ast.unparse(test).lower()
    return any(w in text for w in _SYNC_WORDS)


def manual_optimization(cls: ast.ClassDef) -> bool:
    """The class switches automatic optimization off (or mentions it at all)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "automatic_optimization" for n in ast.walk(cls))
