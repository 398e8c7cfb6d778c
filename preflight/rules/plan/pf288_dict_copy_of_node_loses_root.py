"""PF288 dict-copy-of-node-loses-root: ``dict(cfg.node)`` handed to ``hydra.utils.instantiate`` while the
node's nested values interpolate keys outside it."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps, lookup

_ABSOLUTE = re.compile(r"\$\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}")
_INSTANTIATE = ("instantiate", "call")


def _copied_node(node: ast.AST, root: str) -> Optional[tuple[str, ...]]:
    """``dict(cfg.a.b)`` or ``{**cfg.a.b}`` -> ("a", "b")."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and len(node.args) == 1 and not node.keywords:
        return config_chain(node.args[0], root)
    if isinstance(node, ast.Dict) and node.keys and all(k is None for k in node.keys) and len(node.values) == 1:
        return config_chain(node.values[0], root)
    return None


def _nested_refs(node: Any, tops: set[str], path: tuple[str, ...] = (), depth: int = 0
                 ) -> Iterator[tuple[tuple[str, ...], str, str]]:
    """(key path inside the node, value, reference) of the absolute interpolations below the node's own
    values (depth >= 2: ``dict()`` resolves the node's direct values, not those of its sub-nodes) whose first
    key is not one of the node's own top-level keys."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _nested_refs(value, tops, (*path, str(key)), depth + 1)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nested_refs(value, tops, (*path, str(i)), depth + 1)
    elif isinstance(node, str) and depth >= 2 and "${" in node:
        for match in _ABSOLUTE.finditer(node):
            ref = match.group(1)
            if ref.split(".")[0] not in tops:
                yield path, node, ref


def _instantiated(fn: ast.AST, name: str) -> Optional[ast.Call]:
    for call in ast.walk(fn):
        if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name) \
                and call.args[0].id == name:
            func = call.func
            attr = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if attr in _INSTANTIATE:
                return call
    return None


@register
class DictCopyOfNodeLosesRoot(PlanRule):
    code = "PF288"
    name = "dict-copy-of-node-loses-root"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`dict(cfg.node)` passed to `hydra.utils.instantiate` while the node's sub-nodes interpolate keys "
               "outside it: instantiate re-roots the copy and the interpolations fail")
    explanation = """
## What it finds

In an `@hydra.main` app, a config node copied with `dict(cfg.module)` (or
`{**cfg.module}`) and then given to `hydra.utils.instantiate` (or `call`), where a value
of one of the node's sub-nodes interpolates a key outside the node
(`module.optim.optimizer.lr: ${scaled_lr}` with `scaled_lr` at the root).

## Why it matters

`dict()` resolves the node's own values but keeps its sub-nodes as `DictConfig`
objects. `instantiate` turns a plain dict into a new config
(`OmegaConf.structured(config)` in hydra/_internal/instantiate/_instantiate2.py), whose
root is the copy: the sub-nodes are re-parented there and `${scaled_lr}` is looked up
in the copy, where it does not exist, so instantiation fails
(`InterpolationKeyError`) after the data and the backbone are already set up
(stable-pretraining PR 339: "Using dict() loses the connection to the root config").

## How to fix it

Resolve while the root is reachable: `OmegaConf.to_container(cfg.module, resolve=True)`,
or instantiate the node itself (`instantiate(cfg.module, forward=...)`, passing the
replaced value as a keyword).

## When preflight stays silent

* The copy comes from `OmegaConf.to_container(..., resolve=True)` or the app calls
  `OmegaConf.resolve(cfg)` first.
* The interpolations sit directly in the node (resolved by `dict()`), are relative
  (`${..x}`), or name one of the node's own top-level keys.
"""
    bad_examples = examples("preflight.rules.plan._pf288_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf288_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp, script, fn in hydra_main_apps(pctx.project):
            root = fn.args.args[0].arg
            resolved = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call)
                        and isinstance(n.func, ast.Attribute) and n.func.attr == "resolve"]
            for node in ast.walk(fn):
                copy: Optional[ast.AST] = None
                call: Optional[ast.Call] = None
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    path = _copied_node(node.value, root)
                    if path is not None:
                        copy, call = node, _instantiated(fn, node.targets[0].id)
                elif isinstance(node, ast.Call) and node.args:
                    func = node.func
                    attr = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    path = _copied_node(node.args[0], root) if attr in _INSTANTIATE else None
                    if path is not None:
                        copy, call = node, node
                if copy is None or call is None or path is None or any(line < getattr(copy, "lineno", 0) for line in resolved):
                    continue
                target = lookup(comp.config, path)
                if not isinstance(target, dict):
                    continue
                first = next(_nested_refs(target, {str(k) for k in target}), None)
                if first is None:
                    continue
                key, value, ref = first
                dotted = ".".join(path)
                yield pctx.code_finding(
                    self, script, copy,
                    f"`dict(cfg.{dotted})` copies the node out of the composed config, but "
                    f"`{dotted}.{'.'.join(key)}` is {value!r}, an interpolation of `{ref}` outside the node: "
                    f"`{ast.unparse(call.func)}` builds a new config from the dict, whose root is the copy, so "
                    f"`${{{ref}}}` is not found and instantiation fails. Use "
                    f"`OmegaConf.to_container(cfg.{dotted}, resolve=True)` or instantiate `cfg.{dotted}` itself",
                    evidence=[pctx.code_evidence(script, call, "the copy is instantiated here")])
