"""PF512 hydra-optimizer-without-partial: an optimizer node that Hydra cannot build without parameters."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf427_support import parent_walker
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_PASS_THROUGH = ("_partial_", "_convert_", "_recursive_")


def _instantiate_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _uses(pctx: PlanContext, key: str) -> tuple[bool, bool]:
    """How the scripts build the node ``...<key>``: (reached, with_params). Reached: an
    ``instantiate``/``call`` whose config argument resolves to the key (``cfg.<key>``, a
    ``self.<attr>`` set from an ``__init__`` parameter, a function parameter its callers fill with
    ``cfg.<key>``), or a call of ``self.hparams.<key>(...)`` (the code calls the built node, so it
    must be partial). With params: one of those ``instantiate`` calls passes more arguments."""
    reached = passed = False
    for script in pctx.scripts:
        ancestors = None
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == key and isinstance(func.value, ast.Attribute) \
                    and func.value.attr == "hparams":
                reached = True
                continue
            if not node.args or _instantiate_name(node) not in ("instantiate", "call"):
                continue
            ancestors = ancestors or parent_walker(script.tree)
            if _resolve_key(pctx, script.tree, ancestors, node, node.args[0]) != key:
                continue
            reached = True
            if len(node.args) > 1 or any(kw.arg not in _PASS_THROUGH for kw in node.keywords):
                passed = True
    return reached, passed


def _resolve_key(pctx: PlanContext, tree: ast.AST, ancestors: Any, call: ast.Call, first: ast.AST) -> Optional[str]:
    """The config key a ``instantiate(<first>, ...)`` argument stands for."""
    last = _key_of(first)
    if last is not None:
        return last
    attr = _self_attr(first)
    if attr is not None:
        return _key_through_init(pctx, tree, ancestors, call, attr)
    if isinstance(first, ast.Name):
        return _key_through_param(pctx, ancestors, call, first.id)
    return None


def _key_through_param(pctx: PlanContext, ancestors: Any, call: ast.Call, name: str) -> Optional[str]:
    """``build_optimizer(optcfg, model)`` called as ``build_optimizer(cfg.optimizer, model)``: the
    key of the argument its callers pass for the parameter (one level, any script of the job)."""
    func = next((a for a in ancestors(call) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if func is None:
        return None
    params = [a.arg for a in func.args.args]
    if name not in params:
        return None
    index = params.index(name)
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if callee != func.name:
                continue
            arg = node.args[index] if index < len(node.args) else next(
                (kw.value for kw in node.keywords if kw.arg == name), None)
            if arg is not None and _key_of(arg) is not None:
                return _key_of(arg)
    return None


def _hydra_target(pctx: PlanContext, name: str) -> bool:
    """Some Hydra config node has ``_target_: ....<name>``: Hydra builds the class from its keys."""
    for config in hydra_yaml_configs(pctx):
        for _, node in walk(config.data):
            target = node.get("_target_")
            if isinstance(target, str) and (target == name or target.endswith("." + name)):
                return True
    return False


def _instantiate_calls(pctx: PlanContext, key: str) -> Iterable[ast.Call]:
    """``instantiate(cfg.<key>, ...)`` / ``instantiate(cfg["<key>"])`` calls of the scripts."""
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if _instantiate_name(node) != "instantiate":
                continue
            first = node.args[0]
            last = first.attr if isinstance(first, ast.Attribute) else (
                first.slice.value if isinstance(first, ast.Subscript) and isinstance(first.slice, ast.Constant)
                else None)
            if last == key:
                yield node


def _recursive_call(pctx: PlanContext, key: str) -> Optional[ast.Call]:
    """A call that instantiates the node ``<key>`` recursively (no ``_recursive_=False``)."""
    for call in _instantiate_calls(pctx, key):
        if not any(kw.arg == "_recursive_" and not (isinstance(kw.value, ast.Constant) and kw.value.value)
                   for kw in call.keywords):
            return call
    return None


def _recursive_parent(pctx: PlanContext, config: Any, path: tuple,
                      group: str) -> Optional[tuple[str, ast.Call]]:
    """An enclosing node with a ``_target_`` that a script instantiates recursively (Hydra's
    default): the nested optimizer is then built with it, before any code can pass parameters.
    The root of a config-group file (``conf/model/mnist.yaml``) is the node of its group, and the
    root of a nested group file (``conf/model/optimizer/adam.yaml``) sits inside the files of the
    enclosing group (``conf/model/*.yaml``) whose defaults list selects it."""
    data = config.data
    node = data
    parents = [(group, data)] if group and path else []
    for part in path[:-1]:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
        parents.append((str(part), node))
    if not path and group:
        parents.extend(_enclosing_group_files(pctx, config, group))
    for key, parent in parents:
        if not isinstance(parent, dict) or not isinstance(parent.get("_target_"), str):
            continue
        if parent.get("_recursive_") is False:
            return None  # the parent builds its children itself
        call = _recursive_call(pctx, key)
        if call is not None:
            return key, call
    return None


def _enclosing_group_files(pctx: PlanContext, config: Any, group: str) -> list[tuple[str, Any]]:
    """``(model, data)`` for each ``conf/model/*.yaml`` whose defaults list selects the group
    ``optimizer`` that ``conf/model/optimizer/adam.yaml`` belongs to."""
    here = Path(str(config.path))
    if len(here.parts) < 4:
        return []
    outer = here.parent.parent
    out = []
    for other in hydra_yaml_configs(pctx):
        there = Path(str(other.path))
        if there.parent != outer or not isinstance(other.data, dict):
            continue
        defaults = other.data.get("defaults")
        if isinstance(defaults, list) and any((isinstance(d, dict) and group in d) or d == group for d in defaults):
            out.append((outer.name, other.data))
    return out


def _group(path: object) -> str:
    """The config group a YAML file of a Hydra config folder belongs to (its folder name)."""
    parts = str(path).replace("\\", "/").split("/")
    return parts[-2] if len(parts) >= 3 else ""


def _key_of(expr: ast.AST) -> Optional[str]:
    """``optimizer`` for ``cfg.optimizer`` / ``cfg["optimizer"]``."""
    if isinstance(expr, ast.Attribute) and _self_attr(expr) is None:
        return expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.slice.value
    return None


def _self_attr(expr: ast.AST) -> Optional[str]:
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr
    return None


def _key_through_init(pctx: PlanContext, tree: ast.AST, ancestors: Any, call: ast.Call,
                      attr: str) -> Optional[str]:
    """``self.optimizer_conf`` set in ``__init__(self, optimizer_conf)``: the config key the class
    is built with, from ``LitModel(cfg.optimizer)`` in the same script (one level), or the
    parameter's own name when a Hydra node targets the class (Hydra passes the node's keys)."""
    cls = next((a for a in ancestors(call) if isinstance(a, ast.ClassDef)), None)
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None) \
        if cls is not None else None
    if init is None or cls is None:
        return None
    params = [a.arg for a in init.args.args[1:]]
    param = None
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in params \
                and any(_self_attr(t) == attr for t in node.targets):
            param = node.value.id
    if param is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == cls.name:
            index = params.index(param)
            arg = node.args[index] if index < len(node.args) else next(
                (kw.value for kw in node.keywords if kw.arg == param), None)
            if arg is not None and _key_of(arg) is not None:
                return _key_of(arg)
    if _hydra_target(pctx, cls.name):
        return param
    return None


@register
class HydraOptimizerWithoutPartial(PlanRule):
    code = "PF512"
    name = "hydra-optimizer-without-partial"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A Hydra optimizer node has no `_partial_: true` and no parameters to be built with"
    explanation = """
## What it finds

A Hydra/OmegaConf YAML node `_target_: torch.optim.<Optimizer>` (or an
`lr_scheduler`) without `_partial_: true` and without `params`, when no script
instantiates that node with the parameters (`instantiate(cfg.optimizer,
params=model.parameters())`).

## Why it matters

`instantiate` then calls the optimizer class with no parameters, at the moment
the node is built (often as a child of a model or module node): `TypeError:
__init__() missing 1 required positional argument: 'params'` (Hydra issues 982
and 2028). The code that meant to call the result later with
`self.hparams.optimizer(params=self.parameters())` needs a partial object
(lightning-hydra-template PR 334).

## How to fix it

Add `_partial_: true` to the node (Hydra >= 1.2) and call the result with the
parameters, or pass them when instantiating.

## When preflight stays silent

* `_partial_: true`, a `params` key, or a script that instantiates the node
  with extra arguments, unless the node sits inside a node with a `_target_`
  (also the root of a config-group file such as `conf/model/mnist.yaml`) that a
  script instantiates recursively (Hydra's default, no `_recursive_=False`): the
  nested optimizer is then built with its parent, before any code passes parameters.
  A nested group file (`conf/model/optimizer/adam.yaml`) sits inside the files of its
  enclosing group (`conf/model/*.yaml`) whose defaults list selects it.
* No script of the job builds the node: no `instantiate`/`call` whose config argument
  resolves to it (`cfg.optimizer`, a `self.<attr>` set from an `__init__` parameter, a
  function parameter its callers fill with `cfg.optimizer`) and no `self.hparams.optimizer(...)`
  call. Code outside the job (an installed package) may pass the parameters; preflight cannot
  see it and does not guess.
"""
    bad_examples = examples("preflight.rules.plan._pf512_examples", "PF512_BAD")
    good_examples = examples("preflight.rules.plan._pf512_examples", "PF512_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config in hydra_yaml_configs(pctx):
            for path, node in walk(config.data):
                target = node.get("_target_")
                if not isinstance(target, str) or not target.startswith("torch.optim."):
                    continue
                if node.get("_partial_") is True or "params" in node or "optimizer" in node:
                    continue
                key = str(path[-1]) if path else _group(config.path)
                parent = _recursive_parent(pctx, config, path, _group(config.path))
                if parent is not None:
                    yield pctx.config_finding(
                        self, config, (*path, "_target_"),
                        f"`{target}` sits inside the `{parent[0]}` node, which `{ast.unparse(parent[1])[:60]}` "
                        "instantiates recursively (Hydra's default): the optimizer is built then, with no "
                        "parameters, and raises \"missing 1 required positional argument: 'params'\" before "
                        "the code that passes them runs. Add `_partial_: true` to this node, or pass "
                        "`_recursive_=False` when instantiating the parent")
                    continue
                if not key:
                    continue
                reached, passed = _uses(pctx, key)
                if passed or not reached:
                    continue  # built with its parameters, or not built by any script of the job
                scheduler = target.startswith("torch.optim.lr_scheduler.")
                needs, arg = ("an optimizer", "optimizer") if scheduler else ("the model's parameters", "params")
                yield pctx.config_finding(
                    self, config, (*path, "_target_"),
                    f"`{target}` needs {needs}, but this node has no `_partial_: true` and no "
                    "script passes them when instantiating it: Hydra builds it with none and raises \"missing 1 "
                    f"required positional argument: '{arg}'\". Add `_partial_: true` and call the result with the "
                    f"{'optimizer' if scheduler else 'parameters'}")
