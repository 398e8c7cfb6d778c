"""Whether an expression of a script is the job's process count, read without running it.

``torch.distributed.get_world_size()`` (facebookresearch/DiT ``train.py:174``), and the process count
of an accelerate or Lightning Fabric object the script builds: ``accelerator.num_processes``
(sihyun-yu/REPA @ 67f71450 ``train.py:214``: ``local_batch_size = int(args.batch_size //
accelerator.num_processes)``, after ``accelerator = Accelerator(...)`` at ``:127``), ``fabric.world_size``.
An attribute of anything else named ``num_processes``/``world_size`` (a config field, a parsed option)
is not taken: it is whatever that object holds.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.analysis.syntax import dotted_name

_WORLD_CALLS = ("get_world_size",)
# class (qualified, last part) -> the attribute that holds its process count
_OWNERS = {"Accelerator": ("num_processes",), "PartialState": ("num_processes",),
           "AcceleratorState": ("num_processes",), "Fabric": ("world_size",)}
_PACKAGES = ("accelerate", "lightning", "lightning_fabric", "pytorch_lightning")


def is_world_size(expr: ast.AST, idx: Any) -> bool:
    """``expr`` is ``get_world_size()`` or the process-count attribute of a name bound, only, to an
    accelerate ``Accelerator``/``PartialState`` or a Lightning ``Fabric`` built in the script."""
    if isinstance(expr, ast.Call):
        func = expr.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return last in _WORLD_CALLS
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return False
    if given_to_init(expr, idx):
        return True
    bound = getattr(idx, "assigns", {}).get(expr.value.id, [])
    if not bound or any(not isinstance(b, ast.Call) for b in bound):
        return False
    for value in bound:
        assert isinstance(value, ast.Call)
        qualified = idx.qualify(dotted_name(value.func)) or ""
        cls = qualified.rsplit(".", 1)[-1]
        if not qualified.startswith(_PACKAGES) or expr.attr not in _OWNERS.get(cls, ()):
            return False
    return True


def given_to_init(expr: ast.AST, idx: Any) -> bool:
    """``args.world_size`` that the script also passes as ``world_size=`` to
    ``torch.distributed.init_process_group`` (facebookresearch/barlowtwins ``main.py`` @ 8e8d284:75-77,
    then ``:116`` ``per_device_batch_size = args.batch_size // args.world_size``): the process
    group is that size, whatever the attribute was set from."""
    text = dotted_name(expr)
    if not text:
        return False
    for site in getattr(idx, "calls", []):
        if (site.qualified or site.name or "").rsplit(".", 1)[-1] != "init_process_group":
            continue
        given = site.kwarg("world_size")
        if given is not None and dotted_name(given) == text:
            return True
    return False
