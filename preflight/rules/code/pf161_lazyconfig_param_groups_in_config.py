"""PF161 lazyconfig-param-groups-in-config: parameter groups (a list of dicts of tensors) assigned into a
detectron2 LazyConfig (OmegaConf) node and then instantiated: OmegaConf turns the dicts into DictConfig nodes and
the optimizer refuses them."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# detectron2/solver/build.py: returns a list of {"params": [...], "lr": ..., "weight_decay": ...} dicts
_GROUP_BUILDERS = ("get_default_optimizer_params",)


def _groups_call(node: ast.expr) -> Optional[str]:
    """The text of a value that is a list of parameter-group dicts: a list display of dict displays, or a call of
    a function named for parameter groups (``build_param_groups``, ``get_param_groups``,
    ``get_default_optimizer_params``)."""
    if isinstance(node, ast.List) and node.elts and all(isinstance(e, ast.Dict) for e in node.elts):
        return ast.unparse(node)[:60]
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if "param_groups" in name or name in _GROUP_BUILDERS:
            return f"{name}(...)"
    return None


def _chain(node: ast.expr) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and parts:
        return ".".join([node.id, *parts[::-1]])
    return None


@register
class LazyConfigParamGroupsInConfig(Rule):
    code = "PF161"
    needs_text = ("LazyConfig", ".params")
    name = "lazyconfig-param-groups-in-config"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("Parameter groups (a list of dicts) are assigned into a LazyConfig optimizer node and instantiated: "
               "OmegaConf stores them as DictConfig and the optimizer raises")
    explanation = """
## What it finds

In a file that uses detectron2's `LazyConfig`, an assignment `cfg.optimizer.params = groups`
where `groups` is a list of parameter-group dicts (a list display of dicts, or the result of
a function named for parameter groups: `build_param_groups(model, ...)`,
`get_default_optimizer_params(model)`, directly or through a name bound once in the
function), followed in the same function by `instantiate(cfg.optimizer)`.

## Why it matters

A LazyConfig is an OmegaConf `DictConfig` (with `allow_objects`): a list or dict assigned
into it is converted into `ListConfig`/`DictConfig` nodes, and `instantiate` hands the
optimizer those nodes, not the plain dicts. `torch.optim` then stops with "TypeError:
optimizer can only optimize Tensors, but one of the params is
omegaconf.dictconfig.DictConfig" (APE issue 7). Objects that are not containers (a
module, `model.parameters()`) are stored as they are, which is why detectron2's own
recipe assigns the model: `cfg.optimizer.params.model = model` with a lazy
`get_default_optimizer_params`.

## How to fix it

Pass the groups at call time, `instantiate(cfg.optimizer, params=groups)`, or keep the
lazy recipe (`cfg.optimizer.params.model = model`).

## When preflight stays silent

* The value is the model, `model.parameters()` or any other non-list value, or the
  target is a deeper key (`cfg.optimizer.params.model = model`).
* The groups are passed as a keyword of `instantiate`, or no `instantiate` of that
  node follows in the function.
* The file does not use `LazyConfig` (a plain dict or `EasyDict` config keeps lists as they are).
"""
    bad_examples = examples("preflight.rules.code._pf161_examples", "PF161_BAD")
    good_examples = examples("preflight.rules.code._pf161_examples", "PF161_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef):
            yield from self._function(ctx, fn)

    def _function(self, ctx: FileContext, fn: ast.FunctionDef) -> Iterable[Finding]:
        bound: dict[str, list[ast.expr]] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        bound.setdefault(t.id, []).append(node.value)
        instantiated = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and (
                    (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "instantiate") and (
                    len(node.args) == 1 and not any(k.arg == "params" for k in node.keywords)):
                chained = _chain(node.args[0])
                if chained is not None:
                    instantiated.add((chained, node.lineno))
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if not (isinstance(target, ast.Attribute) and target.attr == "params"):
                continue
            holder = _chain(target.value)
            if holder is None or not any(t == holder and line > node.lineno for t, line in instantiated):
                continue
            value = node.value
            shown = None
            if isinstance(value, ast.Name) and len(bound.get(value.id, [])) == 1:
                inner = _groups_call(bound[value.id][0])
                shown = f"`{value.id}` (= `{inner}`)" if inner else None
            else:
                inner = _groups_call(value)
                shown = f"`{inner}`" if inner else None
            if shown is None:
                continue
            yield ctx.finding(
                self, node,
                f"{shown} is a list of parameter-group dicts assigned into the LazyConfig node `{holder}`: OmegaConf "
                f"converts the dicts into DictConfig nodes, and `instantiate({holder})` gives the optimizer those, so "
                "it stops with \"TypeError: optimizer can only optimize Tensors, but one of the params is "
                f"omegaconf.dictconfig.DictConfig\". Pass them at call time: `instantiate({holder}, params=...)`")
