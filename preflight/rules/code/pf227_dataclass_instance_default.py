"""PF227 dataclass-instance-default: a dataclass field (a Hydra structured config node) whose default is an
instance of another dataclass, which Python 3.11+ rejects at class creation."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import Rule, examples

_DATACLASS = frozenset({"dataclasses.dataclass"})


def _dataclass_decorator(ctx: FileContext, cls: ast.ClassDef) -> Optional[ast.expr]:
    """The standard-library ``@dataclass`` / ``@dataclass(...)`` decorator of ``cls``."""
    imports = scope_index(ctx).imports
    for dec in cls.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if (imports.qualify(target) or "") in _DATACLASS:
            return dec
    return None


def _unhashable(ctx: FileContext, cls: ast.ClassDef) -> bool:
    """A dataclass whose instances have ``__hash__ = None``: ``eq=True`` (the default) without
    ``frozen=True`` or ``unsafe_hash=True``, and no ``__hash__`` of its own (dataclasses.py
    ``_hash_action``)."""
    dec = _dataclass_decorator(ctx, cls)
    if dec is None or len(cls.decorator_list) > 1:  # another decorator may replace the class
        return False
    if isinstance(dec, ast.Call):
        if dec.args or any(k.arg is None for k in dec.keywords):
            return False
        for name in ("frozen", "unsafe_hash"):
            value = kwarg(dec, name)
            if value is not None and not (isinstance(value, ast.Constant) and value.value is False):
                return False
        eq = kwarg(dec, "eq")
        if eq is not None and not (isinstance(eq, ast.Constant) and eq.value is True):
            return False
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__hash__":
            return False
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == "__hash__"
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])):
            return False
    return not any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases)


@register
class DataclassInstanceDefault(Rule):
    code = "PF227"
    needs_text = ("dataclass",)
    name = "dataclass-instance-default"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A dataclass field defaults to an instance of another dataclass (`optim: OptimConfig = "
               "OptimConfig()`): Python 3.11+ raises \"mutable default ... use default_factory\" at import")
    explanation = """
## What it finds

A field of a standard-library `@dataclass` (typically a Hydra structured config) whose
default is an instance of another dataclass defined in the same file,
`optim: OptimConfig = OptimConfig()`, where that dataclass is unhashable: the default
`eq=True` without `frozen=True`, `unsafe_hash=True` or a `__hash__` of its own.

## Why it matters

`dataclass` sets `__hash__ = None` on such a class (dataclasses.py `_hash_action`:
`eq=True, frozen=False` -> "set `__hash__` to None"), and since Python 3.11 `_process_class`
rejects every field default whose class is unhashable (`if f.default.__class__.__hash__
is None: raise ValueError('mutable default ... for field ... is not allowed: use
default_factory')`; before 3.11 only `list`, `dict` and `set` were rejected). The config
module then fails at import, before Hydra starts: "ValueError: mutable default <class
'OptimConfig'> for field optim is not allowed: use default_factory" (cpython issue
88840; Hydra's own configs hit it, fixed in hydra PR 2418; habitat-lab PR 1365, hydra issue 2862).
On older Pythons every instance of the outer class shares the one default object.

## How to fix it

`optim: OptimConfig = field(default_factory=OptimConfig)` (or
`field(default_factory=lambda: OptimConfig(lr=0.1))` for non-default values).

## When preflight stays silent

* The default's class is `frozen=True`, `unsafe_hash=True`, `eq=False` or defines
  `__hash__` (its instances are hashable, Python accepts them).
* The default goes through `field(default_factory=...)`.
* The default's class is not a dataclass of the same file (an imported class is not
  read), has base classes other than `object` or decorators besides `@dataclass` (which may
  replace the class), or the outer class is not a standard-library
  dataclass (pydantic, attrs, flax).
"""
    bad_examples = examples("preflight.rules.code._pf227_examples", "PF227_BAD")
    good_examples = examples("preflight.rules.code._pf227_examples", "PF227_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = {cls.name: cls for cls in ctx.nodes(ast.ClassDef) if _dataclass_decorator(ctx, cls) is not None}
        if len(classes) < 2:
            return
        for cls in classes.values():
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                        and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)):
                    continue
                inner = classes.get(stmt.value.func.id)
                if inner is None or inner is cls or not _unhashable(ctx, inner):
                    continue
                if "ClassVar" in ast.unparse(stmt.annotation):
                    continue
                name = stmt.target.id
                yield ctx.finding(
                    self, stmt.value,
                    f"`{name}: ... = {ast.unparse(stmt.value)[:60]}` gives the field an instance of the dataclass "
                    f"`{inner.name}` as default; `{inner.name}` is unhashable (eq without frozen), and Python 3.11+ "
                    f"refuses it when `{cls.name}` is created: \"ValueError: mutable default <class "
                    f"'{inner.name}'> for field {name} is not allowed: use default_factory\". Use "
                    f"`field(default_factory={inner.name})`",
                    evidence=[ctx.evidence(inner, f"`{inner.name}` is a dataclass with `__hash__ = None`")])
