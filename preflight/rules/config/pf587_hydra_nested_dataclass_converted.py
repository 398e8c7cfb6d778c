"""PF587 hydra-nested-dataclass-converted: a dataclass built by a nested ``_target_`` inside a
plain dict/list of a node instantiated with ``_convert_: none`` reaches its parent as a DictConfig."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._hydra_app_configs import hydra_app_configs
from preflight.sources import read_text_limited


def _dataclass_target(pctx: PlanContext, target: str, bases: list[Path]) -> Optional[str]:
    """``pkg.mod.Cls`` -> the file (display) of a ``@dataclass class Cls`` in the project's
    ``pkg/mod.py``, looked for beside the app scripts and at the project root."""
    if "." not in target:
        return None
    module, name = target.rsplit(".", 1)
    rel = Path(*module.split("."))
    for base in bases:
        path = (base / rel).with_suffix(".py")
        if not os.path.isfile(path) or not pctx.project.may_read(path):
            continue
        try:
            text = read_text_limited(path, errors="replace")
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError, RecursionError):
            return None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name and any(
                    ast.unparse(d).split("(")[0].rsplit(".", 1)[-1] == "dataclass" for d in node.decorator_list):
                return str(path)
        return None
    return None


def _nested_targets(value: Any, path: tuple) -> Iterable[tuple[tuple, str]]:
    """(key path, target) of ``_target_`` nodes inside plain (target-less) dicts and lists."""
    if isinstance(value, dict):
        target = value.get("_target_")
        if isinstance(target, str):
            yield path, target
            return
        for k, v in value.items():
            yield from _nested_targets(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nested_targets(v, (*path, i))


@register
class HydraNestedDataclassConverted(ConfigRule):
    code = "PF587"
    name = "hydra-nested-dataclass-converted"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A `_target_` that builds a dataclass sits in a plain dict/list of a node instantiated with "
               "`_convert_: none`: the parent receives a DictConfig, not the dataclass")
    explanation = """
## What it finds

A config node with a `_target_` and no `_convert_` (or `_convert_: none`) one of whose
arguments is a plain mapping or list (no `_target_` of its own) holding a node whose
`_target_` is a `@dataclass` class of the project (`schedule: {warmup: {_target_:
trainer.WarmupCosine, ...}}`).

## Why it matters

With `_convert_` none, `hydra.utils.instantiate` passes plain mappings and lists to the
parent as `DictConfig`/`ListConfig`. The nested `_target_` is built, but the dataclass
instance is then stored in that `DictConfig`, and OmegaConf turns a dataclass it is given
into a structured `DictConfig`: the parent gets a config node, not the object, so
`self.schedule.lr_at(step)` fails with a missing-key error (Hydra issue 2208,
"instantiate converts inner structured configs back to DictConfig"; `_convert_: object`
or `partial` keeps the instance, per Hydra's "Parameter conversion strategies" docs).

## How to fix it

Set `_convert_: object` (or `partial`) on the parent node, or give the plain mapping its
own `_target_`.

## When preflight stays silent

* The parent sets `_convert_` to `partial`, `object` or `all`.
* The nested target is a direct argument of the parent (it is passed as built), or a
  class preflight does not find as a `@dataclass` in the project.
"""
    bad_examples = examples("preflight.rules.config._pf587_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.config._pf587_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        bases = [pctx.project.root]
        for script in pctx.scripts:
            try:
                parent = Path(script.source.path).resolve().parent
            except (OSError, RuntimeError, ValueError):
                continue
            if parent not in bases:
                bases.append(parent)
        seen: set[str] = set()
        for cfg in [*pctx.configs, *hydra_app_configs(pctx, needle="_target_")]:
            if cfg.kind != "yaml" or not isinstance(cfg.data, dict) or cfg.path in seen:
                continue
            seen.add(cfg.path)
            todo: list[tuple[tuple, Any]] = [((), cfg.data)]
            while todo:
                path, node = todo.pop()
                if isinstance(node, dict):
                    todo.extend(((*path, k), v) for k, v in node.items())
                    finding = self._node(pctx, cfg, path, node, bases)
                    if finding is not None:
                        yield finding
                elif isinstance(node, list):
                    todo.extend(((*path, i), v) for i, v in enumerate(node))

    def _node(self, pctx: PlanContext, cfg: Any, path: tuple, node: dict, bases: list[Path]) -> Optional[Finding]:
        target = node.get("_target_")
        convert = node.get("_convert_", "none")
        if not isinstance(target, str) or str(convert).lower() != "none":
            return None
        for key, value in node.items():
            if not isinstance(key, str) or key.startswith("_") or not isinstance(value, (dict, list)):
                continue
            if isinstance(value, dict) and "_target_" in value:
                continue  # a direct argument: passed as built
            for inner_path, inner in _nested_targets(value, (*path, key)):
                where = _dataclass_target(pctx, inner, bases)
                if where is None:
                    continue
                line = cfg.line_of((*path, "_target_")) or cfg.line_of(path, nearest=True) or 1
                dotted = ".".join(str(p) for p in inner_path)
                message = (f"`{target}` is instantiated with `_convert_` none, and `{key}` is a plain "
                           f"{'mapping' if isinstance(value, dict) else 'list'} holding `{dotted}` whose `_target_` "
                           f"`{inner}` is a dataclass: Hydra builds it and stores it back in a DictConfig, so "
                           f"`{target.rsplit('.', 1)[-1]}` receives a config node, not the `{inner.rsplit('.', 1)[-1]}` "
                           "object, and its methods are missing. Set `_convert_: object` (or `partial`) on this node")
                return pctx.location_finding(self, cfg.path, line, message)
        return None
