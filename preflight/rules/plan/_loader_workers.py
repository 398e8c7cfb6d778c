"""DataLoader calls of a script and what they are handed: the dataset's local class and the worker count
(shared by PF468 and PF370)."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from preflight.plan_rules import PlanContext

LOADERS = frozenset({"DataLoader"})


def kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def dataset_class(arg: Optional[ast.expr], tree: ast.Module, classes: dict[str, ast.ClassDef]) -> Optional[ast.ClassDef]:
    """The local class ``arg`` is built from: ``Cls(...)`` directly, or a name assigned ``Cls(...)`` once."""
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
        return classes.get(arg.func.id)
    if isinstance(arg, ast.Name):
        found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
        if len(found) == 1 and isinstance(found[0], ast.Call) and isinstance(found[0].func, ast.Name):
            return classes.get(found[0].func.id)
    return None


def worker_count(workers: Optional[ast.expr], pctx: PlanContext) -> Optional[int]:
    """The loader's worker count: a literal, or ``args.num_workers`` read from the job's plan, whose
    ``data.num_workers`` facts come from that very option (the launch line's value, else its argparse
    default); None when the option's facts disagree or the count is not known."""
    if isinstance(workers, ast.Constant):
        if isinstance(workers.value, int) and not isinstance(workers.value, bool):
            return workers.value
        return None
    option = workers.attr if isinstance(workers, ast.Attribute) else None
    if option is None:
        return None
    values = {f.value for f in pctx.plan.facts("data.num_workers")
              if (getattr(f.source, "key", None) or "").lstrip("-").replace("-", "_").split(".")[-1] == option}
    if len(values) != 1:
        return None
    value = next(iter(values))
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def loaders(tree: ast.Module) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in LOADERS:
                yield node
