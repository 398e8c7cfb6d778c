"""Optimizer classes a training script defines itself: facebookresearch/barlowtwins
``main.py`` @ 8e8d284:224 ``class LARS(optim.Optimizer)``, built at :99 ``optimizer =
LARS(parameters, lr=0, ...)``. A class of the file's top level whose base is ``Optimizer``
(``torch.optim.Optimizer``, ``optim.Optimizer`` or a bare imported ``Optimizer``) is an
optimizer class; the call that builds it names the job's optimizer (medium: its maths is the
project's own).

A class with no base that keeps the optimizer's protocol is one too when its name says which
optimizer it is: KellerJordan/modded-nanogpt @ f411b3d ``train_gpt.py:374`` ``class NorMuonAndAdam:``
(``step``, ``state_dict``, ``load_state_dict``; NorMuon for the matrices and Adam for the rest, its
all-reduce written by hand, so it is no ``torch.optim.Optimizer``), built at :2078 from
``model.named_parameters()``. Only a top-level class without bases that defines ``step`` and
``state_dict`` or ``zero_grad``, whose name ends in an optimizer's name (``_OPTIMIZER_CLASS``: a
wrapper such as ``ScheduledOptim`` or ``CombinedOptimizer`` does not), and that builds no
``torch.optim`` optimizer of its own (then it wraps that one)."""

from __future__ import annotations

import ast

from preflight.analysis.syntax import dotted_name


def local_optimizer_classes(tree: object) -> set[str]:
    """Names of the top-level classes of ``tree`` that derive from an ``Optimizer``."""
    if not isinstance(tree, ast.Module):
        return set()
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (any(
                (dotted_name(b) or "").rsplit(".", 1)[-1] == "Optimizer" for b in node.bases) or _protocol_class(node)):
            out.add(node.name)
    return out


def _protocol_class(node: ast.ClassDef) -> bool:
    from preflight.adapters.pytorch_pass import _OPTIMIZER_CLASS

    if node.bases or node.keywords or not _OPTIMIZER_CLASS.search(node.name):
        return False
    methods = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if "step" not in methods or not methods & {"state_dict", "zero_grad"}:
        return False
    return not any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").split(".")[-2:-1] == ["optim"]
                   for n in ast.walk(node))
