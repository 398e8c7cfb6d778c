"""PF456 param-groups-without-convert: parameter-group dicts passed to Hydra's ``instantiate`` without ``_convert_``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules.base import Rule, examples


def _is_instantiate(qual: str, call: ast.Call) -> bool:
    if qual:
        return qual.startswith("hydra.") and qual.endswith(".instantiate")
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "instantiate" and "hydra" in ast.unparse(func)


def _groups(ctx: FileContext, expr: Optional[ast.AST], call: ast.Call) -> Optional[ast.AST]:
    """A list display of dicts (``[{"params": ...}, ...]``), itself or last assigned to the name in the
    function of the call (before it)."""
    if isinstance(expr, ast.Name):
        scope = next((a for a in _ancestors(ctx, call)
                      if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module))), None)
        found = None
        for node in ast.walk(scope) if scope is not None else ():
            if isinstance(node, ast.Assign) and node.lineno < call.lineno \
                    and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
                found = node.value
        expr = found
    if isinstance(expr, ast.List) and expr.elts and all(
            isinstance(e, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "params" for k in e.keys)
            for e in expr.elts):
        return expr
    return None


def _ancestors(ctx: FileContext, node: ast.AST) -> Iterable[ast.AST]:
    cur = ctx.parent(node)
    while cur is not None:
        yield cur
        cur = ctx.parent(cur)


@register
class ParamGroupsWithoutConvert(Rule):
    code = "PF456"
    needs_text = ("instantiate",)
    name = "param-groups-without-convert"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "Parameter-group dicts are passed to Hydra's `instantiate` without `_convert_`"
    explanation = """
## What it finds

`hydra.utils.instantiate(optimizer_cfg, params=[{"params": ..., "weight_decay": 0.0}, ...])`
(a list of parameter-group dicts, written there or assigned just before) with no
`_convert_` argument.

## Why it matters

`instantiate` merges its keyword arguments into the config before calling the
target, so the list of dicts reaches the optimizer as an OmegaConf `ListConfig` of
`DictConfig`, and `torch.optim` refuses it at start-up: "optimizer can only optimize
Tensors, but one of the params is omegaconf.dictconfig.DictConfig" (Hydra issue 1715).

## How to fix it

`instantiate(optimizer_cfg, params=groups, _convert_="partial")` (or `"all"`), or
build the optimizer with `_partial_: true` and call it with the groups.

## When preflight stays silent

* `_convert_` is given, the parameters are a generator or `model.parameters()`, or
  the groups are built in a way preflight cannot read (a comprehension, a helper).
* The groups are passed positionally (`instantiate(cfg, grouped_parameters)`, as
  lightning-transformers' `HydraInstantiator.optimizer` does): `instantiate` passes positional
  arguments through to the target untouched (its docstring: "args: Optional positional parameters
  pass-through"; only the keyword arguments are merged into the config, Hydra 1.1-1.3
  `_instantiate2.py`), so the optimizer receives plain dicts.
"""
    bad_examples = examples("preflight.rules.code._pf456_examples", "PF456_BAD")
    good_examples = examples("preflight.rules.code._pf456_examples", "PF456_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not _is_instantiate(qual, call) or kwarg(call, "_convert_") is not None or has_unpacking(call):
                continue
            # only the keyword: instantiate merges its keyword arguments into the config, while positional
            # arguments are passed through to the target untouched (hydra `instantiate`, "args: Optional
            # positional parameters pass-through", 1.1-1.3: `instantiate(cfg, groups)` gets plain dicts)
            params = kwarg(call, "params")
            groups = _groups(ctx, params, call)
            if groups is None:
                continue
            yield ctx.finding(
                self, call,
                "parameter-group dicts are passed to `instantiate` without `_convert_`: Hydra merges them into "
                "the config, the optimizer receives a ListConfig of DictConfig and raises \"optimizer can only "
                "optimize Tensors, but one of the params is omegaconf.dictconfig.DictConfig\". Pass "
                "`_convert_=\"partial\"`",
                evidence=[ctx.evidence(groups, "the parameter groups")] if groups is not params else None)
