"""PF1000 hydra-interpolated-target-built-twice: a node with a ``_target_`` (the model) is handed to
another instantiated node by interpolation (``model: ${model}``), and the script also builds the model
itself: the interpolation copies the node's config, not the object, so ``instantiate`` builds a second,
freshly initialised model for the other component."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_WHOLE = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}$")
# calls that show the script's own instance is the network that trains
_TRAINED = frozenset({"parameters", "named_parameters", "cuda", "to", "train"})


def _key(expr: ast.AST) -> Optional[str]:
    """``model`` for ``cfg.model`` / ``cfg["model"]`` / ``cfg.trainer.model``."""
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.slice.value
    return None


def _is_instantiate(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == "instantiate" and bool(call.args)


def _instantiates(pctx: PlanContext, key: str) -> Iterator[tuple[ast.AST, ast.Call]]:
    """(script tree, call) for each ``instantiate(cfg.<key>, ...)`` of the job's scripts."""
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call) and _is_instantiate(node) and _key(node.args[0]) == key:
                yield script.tree, node


def _bound_name(tree: ast.AST, call: ast.Call) -> Optional[str]:
    """``model`` for ``model = instantiate(cfg.model)`` / ``model = instantiate(cfg.model).cuda()``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        value: ast.AST = node.value
        while True:
            if value is call:
                return node.targets[0].id
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                value = value.func.value
                continue
            break
    return None


def _trained(tree: ast.AST, name: str) -> bool:
    """The script uses its own instance as the network: ``model.parameters()``, ``model.cuda()``,
    ``model.to(device)``, ``trainer.fit(model, ...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _TRAINED and isinstance(func.value, ast.Name) \
                and func.value.id == name:
            return True
        if isinstance(func, ast.Attribute) and func.attr == "fit" and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == name:
            return True
    return False


def _resolve(pctx: PlanContext, config: Any, dotted: str) -> Optional[dict]:
    """The node ``${dotted}`` points at: in the same file, else (one key) the root of a file of the
    config group of that name (``conf/model/vit.yaml`` for ``${model}``)."""
    node: Any = config.data
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            node = None
            break
        node = node[part]
    if isinstance(node, dict):
        return node
    if "." in dotted:
        return None
    for other in hydra_yaml_configs(pctx):
        if Path(str(other.path)).parent.name == dotted and isinstance(other.data, dict) \
                and isinstance(other.data.get("_target_"), str):
            return other.data
    return None


def _container_key(config: Any, path: tuple) -> Optional[str]:
    """The key the script instantiates the holding node with: ``ema`` for ``ema: {_target_: ...}``,
    ``callbacks`` for an item of the list ``callbacks:``; for the root of a group file, the group."""
    for part in reversed(path):
        if isinstance(part, str):
            return part
    if not path:
        parent = Path(str(config.path)).parent.name
        return parent or None
    return None


def _passes(call: ast.Call, field: str) -> bool:
    """The instantiate call hands the field in itself (``instantiate(cfg.ema, model=model)``)."""
    return any(kw.arg == field or kw.arg is None for kw in call.keywords)


@register
class HydraInterpolatedTargetBuiltTwice(PlanRule):
    code = "PF1000"
    name = "hydra-interpolated-target-built-twice"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = ("A node with a `_target_` is interpolated whole into another instantiated node (`model: ${model}`) "
               "while the script builds it too: instantiate makes a second, untrained copy")
    explanation = """
## What it finds

A field of a Hydra node with a `_target_` (a callback, an EMA helper, a wrapper) whose value is
the whole of another node with its own `_target_`, by interpolation (`model: ${model}`), when the
job's script also builds that other node itself (`model = instantiate(cfg.model)`) and trains it
(`model.parameters()`, `model.cuda()`, `trainer.fit(model)`), and instantiates the holding node
(`instantiate(cfg.callbacks)`) without passing the field in.

## Why it matters

An interpolation copies the config node, not the object built from it: `instantiate` builds the
interpolated `_target_` again for the holding node. The EMA callback, the teacher, the evaluator
receive a second, freshly initialised model that nothing trains, and the copy takes its own
memory (Hydra issues 2078 "Redundant instantiate if object referenced inside list" and 2567
"Reuse instantiated object in multiple locations": the maintainers confirm that the config is
interpolated before instantiation, so each place gets its own instance).

## How to fix it

Drop the interpolation and pass the live object when building the holding node:
`instantiate(cfg.ema, model=model)` (for a list, instantiate its items one by one).

## When preflight stays silent

* The holding node is instantiated with the field passed in (`instantiate(cfg.ema, model=model)`),
  or with `**kwargs`.
* The script never builds the interpolated node itself, or builds it without training it there
  (a second encoder built from the same config on purpose is one object per place).
* Interpolations of a part of a node (`${model.hidden_size}`) or of a node without `_target_`.
"""
    bad_examples = examples("preflight.rules.plan._pf1000_examples", "PF1000_BAD")
    good_examples = examples("preflight.rules.plan._pf1000_examples", "PF1000_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, int]] = set()
        for config in hydra_yaml_configs(pctx):
            for path, node in walk(config.data):
                if not isinstance(node.get("_target_"), str):
                    continue
                for field, value in node.items():
                    match = _WHOLE.match(value) if isinstance(value, str) else None
                    if match is None:
                        continue
                    dotted = match.group(1)
                    target = _resolve(pctx, config, dotted)
                    if target is None or not isinstance(target.get("_target_"), str):
                        continue
                    finding = self._check(pctx, config, path, str(field), dotted, target["_target_"])
                    if finding is not None and (finding.path, finding.span.line) not in seen:
                        seen.add((finding.path, finding.span.line))
                        yield finding

    def _check(self, pctx: PlanContext, config: Any, path: tuple, field: str, dotted: str,
               target: str) -> Optional[Finding]:
        own = dotted.rsplit(".", 1)[-1]
        built = None
        for tree, call in _instantiates(pctx, own):
            name = _bound_name(tree, call)
            if name is not None and _trained(tree, name):
                built = (name, call)
                break
        if built is None:
            return None
        holder = _container_key(config, path)
        if holder is None or holder == own:
            return None
        holder_calls = [call for _, call in _instantiates(pctx, holder)]
        if not holder_calls or all(_passes(call, field) for call in holder_calls):
            return None
        call = next(c for c in holder_calls if not _passes(c, field))
        return pctx.config_finding(
            self, config, (*path, field),
            f"`{field}: ${{{dotted}}}` copies the config of `{target}`, not the object: "
            f"`{ast.unparse(call)[:60]}` builds a second, freshly initialised `{target.rsplit('.', 1)[-1]}` for "
            f"this node, while the script trains its own (`{built[0]} = {ast.unparse(built[1])[:50]}`). Drop the "
            f"interpolation and pass the live object: `instantiate(<node>, {field}={built[0]})`")
