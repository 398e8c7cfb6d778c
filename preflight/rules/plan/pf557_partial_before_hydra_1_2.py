"""PF557 partial-before-hydra-1-2: ``_partial_`` in a project that pins hydra-core below 1.2, where
``instantiate`` does not know the key."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _partials(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(node, dict):
        if node.get("_partial_") is True and "_target_" in node:
            yield (*path, "_partial_")
        for key, value in node.items():
            if isinstance(key, str) and key != "hydra":
                yield from _partials(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _partials(value, (*path, str(i)))


@register
class PartialBeforeHydra12(PlanRule):
    code = "PF557"
    name = "partial-before-hydra-1-2"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "`_partial_: true` in a project that pins hydra-core below 1.2, whose `instantiate` does not know it"
    explanation = """
## What it finds

A node with `_target_` and `_partial_: true` in the composed config of a Hydra app (or
`instantiate(..., _partial_=True)` in its code), in a project whose requirements pin
`hydra-core` to a release before 1.2 (`hydra-core==1.1.1`).

## Why it matters

`_partial_` came with Hydra 1.2 (facebookresearch/hydra #1905, first in v1.2.0; the
v1.1.1 `_instantiate2.py` has no `_partial_`). Hydra 1.1 passes it to the target as an
ordinary keyword: `torch.optim.Adam(lr=..., _partial_=True)` fails ("__init__() got an
unexpected keyword argument '_partial_'"; missing `params`), so the run stops where the
optimizer is built (hydra issue 1998).

## How to fix it

Require `hydra-core>=1.2` (with a matching omegaconf), or build the object later with
`functools.partial(instantiate, cfg.optimizer)`.

## When preflight stays silent

* No hydra-core version is declared, or it is not pinned below 1.2 (`>=1.1` may resolve
  to a current release).
"""
    bad_examples = examples("preflight.rules.plan._pf555_examples", "PF557_BAD")
    good_examples = examples("preflight.rules.plan._pf555_examples", "PF557_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        seen: set[tuple[str, int]] = set()
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            version = pctx.version("hydra-core", comp.app.script)
            if version is None or version.how != "pinned" or version.at_least(1, 2):
                continue
            places: list[tuple[str, int]] = []
            for key_path in _partials(comp.config):
                origin = comp.origins.get(key_path)
                if origin and origin[1]:
                    places.append((origin[0], origin[1]))
            script = comp.app.script
            for node in ast.walk(script.tree):
                if isinstance(node, ast.Call) and any(kw.arg == "_partial_" for kw in node.keywords):
                    places.append((script.source.display, node.lineno))
            for where, line in places:
                if (where, line) in seen:
                    continue
                seen.add((where, line))
                yield pctx.location_finding(
                    self, where, line,
                    f"`_partial_` needs Hydra 1.2 or later, but the project pins {version.describe()}: Hydra 1.1 "
                    "passes `_partial_` to the target as an ordinary keyword, so instantiating it fails (\"got an "
                    "unexpected keyword argument '_partial_'\"). Require hydra-core>=1.2, or wrap `instantiate` in "
                    "`functools.partial`",
                    evidence=[Evidence(line=int(version.where.rsplit(":", 1)[1]) if version.where.rsplit(":", 1)[-1]
                                       .isdigit() else 1, path=version.where.rsplit(":", 1)[0],
                                       message="the pinned hydra-core version")])
