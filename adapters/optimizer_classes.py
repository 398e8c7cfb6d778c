"""Optimizer classes a training script defines itself: facebookresearch/barlowtwins
``main.py`` @ 8e8d284:224 ``class LARS(optim.Optimizer)``, built at :99 ``optimizer =
LARS(parameters, lr=0, ...)``. A class of the file's top level whose base is ``Optimizer``
(``torch.optim.Optimizer``, ``optim.Optimizer`` or a bare imported ``Optimizer``) is an
optimizer class; the call that builds it names the job's optimizer (medium: its maths is the
project's own)."""

from __future__ import annotations

import ast

from preflight.analysis.syntax import dotted_name


def local_optimizer_classes(tree: object) -> set[str]:
    """Names of the top-level classes of ``tree`` that derive from an ``Optimizer``."""
    if not isinstance(tree, ast.Module):
        return set()
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
                (dotted_name(b) or "").rsplit(".", 1)[-1] == "Optimizer" for b in node.bases):
            out.add(node.name)
    return out
