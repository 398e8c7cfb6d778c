"""PF596 listconfig-iterated-unresolved: a Hydra/OmegaConf list of interpolations iterated on
omegaconf < 2.0 (hydra-core < 1.0), which yields the raw ``${...}`` strings."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_chains import attribute_chain, config_names


def _iterated(fn: ast.AST, roots: set[str]) -> Iterator[tuple[ast.AST, tuple[str, ...]]]:
    """(node, key path) of each config attribute chain the function iterates: ``for x in cfg.a.b``, a
    comprehension over it, ``list(cfg.a.b)``/``tuple(...)``/``set(...)``/``sorted(...)``, ``[*cfg.a.b]``."""
    for node in ast.walk(fn):
        its: list[ast.AST] = []
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            its.append(node.iter)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("list", "tuple", "set", "sorted", "enumerate", "zip") and node.args:
            its.extend(node.args)
        elif isinstance(node, ast.Starred):
            its.append(node.value)
        for it in its:
            path = attribute_chain(it, roots)
            if path:
                yield it, path


def _interpolated(value: Any) -> Optional[str]:
    """The first item of a list that is a string with an interpolation, else None."""
    if isinstance(value, list):
        for item in value:
            if isinstance(item, str) and "${" in item:
                return item
    return None


def _old_omegaconf(pctx: PlanContext, script: Any) -> Optional[str]:
    """The pin that says omegaconf is below 2.0 (omegaconf itself, else hydra-core below 1.0), or None."""
    omega = pctx.version("omegaconf", script)
    if omega is not None and omega.how == "pinned":
        return None if omega.at_least(2, 0) else omega.describe()
    hydra = pctx.version("hydra-core", script)
    if hydra is not None and hydra.how == "pinned" and not hydra.at_least(1, 0):
        return hydra.describe()
    return None


@register
class ListConfigIteratedUnresolved(PlanRule):
    code = "PF596"
    name = "listconfig-iterated-unresolved"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config list of interpolations is iterated on omegaconf < 2.0 (hydra-core < 1.0): iteration "
               "yields the raw `${...}` strings, not the resolved values")
    explanation = """
## What it finds

A script of a Hydra/OmegaConf job, in a project that pins omegaconf below 2.0 (or
hydra-core below 1.0, which requires omegaconf 1.x), that iterates a config list whose
items interpolate other keys (`for d in cfg.checkpoint_dirnames:` over
`- ${base_dir}/${model.name}/`; a comprehension over it, `list(cfg.x)`, `[*cfg.x]`).

## Why it matters

In omegaconf 1.4, `ListConfig.__iter__` returns the stored node values without
resolving them (omegaconf/listconfig.py at v1.4.1: `MyItems.next` returns
`v.value()`), while indexing (`cfg.x[0]`) resolves. The loop therefore sees the literal
string `"${base_dir}/${model.name}/"`: a script that creates directories or opens files
with it writes into a folder literally named `${base_dir}` (hydra issue 267: "value
interpolation does not work in list"; omry: "use `to_container(resolve=True)`").
omegaconf 2.0 resolves on iteration (`__iter__` is `_iter_ex(resolve=True)`).

## How to fix it

Resolve the list first: `OmegaConf.to_container(cfg.x, resolve=True)`, or index it
(`cfg.x[i]`); or upgrade to omegaconf >= 2.0 / hydra-core >= 1.0.

## When preflight stays silent

* omegaconf is not pinned, or pinned at 2.0 or later (and hydra-core is not pinned below 1.0).
* The list has no interpolated string, the script iterates `to_container(..., resolve=True)`,
  or it indexes the list.
"""
    bad_examples = examples("preflight.rules.plan._pf596_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf596_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            script = comp.app.script
            pin = _old_omegaconf(pctx, script)
            if pin is None or script.tree is None:
                continue
            seen: set[tuple[int, tuple[str, ...]]] = set()
            for fn in ast.walk(script.tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    continue
                roots = config_names(fn)
                if not roots:
                    continue
                for node, path in _iterated(fn, roots):
                    value: Any = comp.config
                    for part in path:
                        value = value.get(part) if isinstance(value, dict) else None
                    item = _interpolated(value)
                    line = getattr(node, "lineno", None)
                    if item is None or line is None or (line, path) in seen:
                        continue
                    seen.add((line, path))
                    key = ".".join(path)
                    evidence = []
                    origin = comp.origins.get(path)
                    if origin is not None and origin[1] is not None:
                        evidence.append(Evidence(line=origin[1], path=origin[0],
                                                 message=f"`{key}` holds `{item}`"))
                    yield pctx.code_finding(self, script, node, (
                        f"this iterates `{key}`, a list with interpolations (`{item}`), on {pin}: omegaconf "
                        "1.x's ListConfig iteration returns the raw strings without resolving them (only "
                        f"indexing resolves), so the loop sees the literal `{item}`. Iterate "
                        f"`OmegaConf.to_container(cfg.{key}, resolve=True)` instead, or upgrade to omegaconf "
                        ">= 2.0"), evidence=evidence)
