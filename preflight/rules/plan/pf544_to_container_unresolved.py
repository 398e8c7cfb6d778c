"""PF544 to-container-unresolved: ``OmegaConf.to_container`` without ``resolve=True`` on a node with interpolations."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps, lookup


def _interpolations(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _interpolations(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _interpolations(value, (*path, str(i)))
    elif isinstance(node, str) and "${" in node:
        yield path, node


def _resolves(call: ast.Call) -> bool:
    """``resolve=True`` given (or a non-literal ``resolve=``, which may be True)."""
    kw = next((k for k in call.keywords if k.arg == "resolve" or k.arg is None), None)
    if kw is None:
        return len(call.args) >= 2 and not (isinstance(call.args[1], ast.Constant) and call.args[1].value is False)
    return not (isinstance(kw.value, ast.Constant) and kw.value.value is False)


@register
class ToContainerUnresolved(PlanRule):
    code = "PF544"
    name = "to-container-unresolved"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "`OmegaConf.to_container` without `resolve=True` on a config node that holds interpolations"
    explanation = """
## What it finds

In an `@hydra.main` app, `OmegaConf.to_container(cfg.node)` without `resolve=True` where
the composed `node` holds `${...}` interpolations, and the app does not call
`OmegaConf.resolve(...)` first.

## Why it matters

OmegaConf resolves interpolations lazily, when a value is read from the config;
`to_container` copies the raw strings unless told to resolve. The plain dict then hands
`"${paths.root}/checkpoints"` to whatever receives it (`TrainingArguments(**kwargs)`, a
logger, a path): checkpoints land in a folder literally named `${paths.root}`, a run is
named `${experiment}` (omegaconf issue 1145: "Interpolation is evaluated lazily on access").

## How to fix it

`OmegaConf.to_container(cfg.node, resolve=True)`, or `OmegaConf.resolve(cfg)` before.

## When preflight stays silent

* `resolve=True` (or a non-literal `resolve=`) is given, or the function calls `OmegaConf.resolve`.
* The node has no interpolation in the composed config, or preflight cannot tell which node it is.
"""
    bad_examples = examples("preflight.rules.plan._pf527_examples", "PF544_BAD")
    good_examples = examples("preflight.rules.plan._pf527_examples", "PF544_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp, script, fn in hydra_main_apps(pctx.project):
            root = fn.args.args[0].arg
            resolved_at = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call)
                           and isinstance(n.func, ast.Attribute) and n.func.attr == "resolve"]
            for call in ast.walk(fn):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "to_container" and call.args) or _resolves(call):
                    continue
                if any(line < call.lineno for line in resolved_at):
                    continue
                arg = call.args[0]
                path: Optional[tuple[str, ...]] = () if isinstance(arg, ast.Name) and arg.id == root \
                    else config_chain(arg, root)
                if path is None:
                    continue
                node = lookup(comp.config, path) if path else comp.config
                first = next(_interpolations(node, path), None)
                if first is None:
                    continue
                key, value = first
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)}` copies the config without resolving it, and `{'.'.join(key)}` is the "
                    f"interpolation {value!r}: the dict holds that literal string, not its value (OmegaConf "
                    "resolves only on access), so whatever receives it gets \"${{...}}\" text, e.g. a folder "
                    "named after it. Pass `resolve=True`")
