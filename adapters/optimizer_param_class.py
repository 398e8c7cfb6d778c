"""An optimizer class handed to a constructor or function by parameter, then called there.

VentusAislant/MyDemos my_demos/DDP_demos/DDP4_fsdp_torchrun_training.py:183,197-210,79: ``optimizer_cls =
torch.optim.Adam`` in ``main``, ``Trainer(model=model, ..., optimizer_cls=optimizer_cls, ...)``, and in
``Trainer.__init__(self, ..., optimizer_cls: Type[Optimizer], ...)`` ``self.optimizer = optimizer_cls(params=...,
lr=lr)``. The called name is a parameter of the function around the call; every call of that function
(``C(...)`` for ``C.__init__``, ``f(...)`` for a top-level ``f``) in the script passes the same class for it,
by keyword or by position, either written out (``torch.optim.Adam``) or through a name bound once to it.
Nothing is said when the function is never called in the script, when two calls pass different things, or
when a call passes ``*args``/``**kwargs``: the class is then not known."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.param_passed import bound_once, passed_argument

from preflight.analysis.syntax import dotted_name


def parameter_class(idx: Any, call: ast.Call) -> Optional[str]:
    """The qualified class that ``call``'s callee parameter receives at every call site, or None."""
    if not isinstance(call.func, ast.Name):
        return None
    passed = passed_argument(idx.script.tree, call, call.func.id)
    if passed is None:
        return None
    given, caller = passed
    value = given if isinstance(given, ast.Attribute) else bound_once(idx, given, caller)
    dotted = dotted_name(value) if isinstance(value, ast.Attribute) else None
    return idx.qualify(dotted) if dotted and "." in dotted else None
