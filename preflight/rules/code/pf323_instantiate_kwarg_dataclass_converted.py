"""PF323 instantiate-kwarg-dataclass-converted: a dataclass instance passed to Hydra's ``instantiate`` as a keyword
argument, which Hydra merges into the config and turns back into a config node."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking
from preflight.rules.base import Rule, examples


def _is_instantiate(qual: str, call: ast.Call) -> bool:
    if qual:
        return qual.startswith("hydra.") and qual.rsplit(".", 1)[-1] in ("instantiate", "call")
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "instantiate" and "hydra" in ast.unparse(func)


def _dataclasses(tree: ast.AST) -> dict[str, ast.ClassDef]:
    """The file's classes decorated ``@dataclass`` / ``@dataclasses.dataclass(...)``."""
    out: dict[str, ast.ClassDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if ast.unparse(target).rsplit(".", 1)[-1] == "dataclass":
                    out[node.name] = node
    return out


_SCHEMA_SUFFIXES = ("Config", "Conf", "Cfg", "Params", "Args", "Arguments", "Settings", "Options")


def _schema(cls: ast.ClassDef) -> bool:
    """A structured-config schema rather than a runtime object: named like one or holding ``_target_``."""
    return cls.name.endswith(_SCHEMA_SUFFIXES) or any(
        isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id == "_target_"
        for s in cls.body)


def _typed_fields(classes: dict[str, ast.ClassDef]) -> dict[str, str]:
    """``field -> dataclass`` for the annotated fields of the file's dataclasses whose type is another of them
    that is not a config schema (``model: EnergyModel``)."""
    out: dict[str, str] = {}
    for cls in classes.values():
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                name = ast.unparse(stmt.annotation).strip("'\"").rsplit(".", 1)[-1]
                if name in classes and not _schema(classes[name]):
                    out[stmt.target.id] = name
    return out


def _bound(ctx: FileContext, value: ast.expr, call: ast.Call) -> Optional[ast.expr]:
    """What a name was last bound to before ``call``, in the call's function."""
    if not isinstance(value, ast.Name):
        return None
    scope = ctx.enclosing_function(call) or ctx.tree
    found: Optional[ast.expr] = None
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno < call.lineno \
                and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets):
            found = node.value
    return found


@register
class InstantiateKwargDataclassConverted(Rule):
    code = "PF323"
    needs_text = ("dataclass",)
    name = "instantiate-kwarg-dataclass-converted"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A dataclass instance passed to Hydra's `instantiate` as a keyword argument is turned back into "
               "a config node")
    explanation = """
## What it finds

`hydra.utils.instantiate(cfg.sampler, model=model)` (or `hydra.utils.call`) where `model`
is an instance of a `@dataclass` of the file: built from it in the same function
(`model = EnergyModel(8)`), or built by `instantiate(cfg.model)` and passed for a field
that a dataclass of the file types with such a class (`model: EnergyModel` in the target
class), one that is not a structured-config schema (no `_target_` field, not named
`...Config`/`...Cfg`/`...Args`).

## Why it matters

`instantiate` merges its keyword arguments into the config before building the target, and
OmegaConf converts a dataclass instance into a structured config node on the way: the
target receives a `DictConfig` with the field values, not the object (hydra issue 2591:
"instantiate converts instantiated objects back to their configs when passing as
arguments"). The sampler never sees the trained parameters or the object's methods; with
`_convert_="object"` it gets a fresh copy rebuilt from the fields, not the same object.

## How to fix it

Instantiate the target as a partial and pass the object to the result:
`instantiate(cfg.sampler, _partial_=True)(model=model)`, or pass it positionally (positional
arguments go to the target untouched).

## When preflight stays silent

* The argument is positional, or is not known to be a dataclass instance (an `nn.Module`,
  a plain object, a value from elsewhere).
* The object is handed to the result of a partial instantiate.
"""
    bad_examples = examples("preflight.rules.code._pf323_examples", "PF323_BAD")
    good_examples = examples("preflight.rules.code._pf323_examples", "PF323_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = _dataclasses(ctx.tree)
        if not classes:
            return
        typed = _typed_fields(classes)
        for call, qual in calls(ctx):
            if not _is_instantiate(qual, call) or has_unpacking(call) or not call.args:
                continue
            for kw in call.keywords:
                if kw.arg is None or kw.arg.startswith("_") or isinstance(kw.value, ast.Constant):
                    continue
                made = _bound(ctx, kw.value, call)
                cls: Optional[str] = None
                if isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id in classes:
                    cls = made.func.id  # model = EnergyModel(8)
                elif kw.arg in typed and isinstance(made, ast.Call) \
                        and any(_is_instantiate(q, c) for c, q in calls(ctx) if c is made):
                    cls = typed[kw.arg]  # model = instantiate(cfg.model), for the field `model: EnergyModel`
                if cls is None:
                    continue
                value = ast.unparse(kw.value)
                yield ctx.finding(
                    self, call,
                    f"`{kw.arg}={value}` hands an instance of the dataclass `{cls}` to `instantiate` as a keyword "
                    "argument: Hydra merges keyword arguments into the config first, and OmegaConf turns the "
                    f"dataclass back into a config node, so the target receives a DictConfig of `{cls}`'s fields, "
                    f"not `{value}` (hydra issue 2591). Instantiate a partial and pass the object to it: "
                    f"`instantiate({ast.unparse(call.args[0])}, _partial_=True)({kw.arg}={value})`",
                    evidence=[ctx.evidence(classes[cls], f"`{cls}` is a dataclass")])
