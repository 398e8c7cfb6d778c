"""PF615 lightning2-precision-on-lightning1: a Lightning 2 precision string (``"bf16-mixed"``,
``"16-mixed"``, ``"32-true"``) given to the ``Trainer`` of a project that pins Lightning 1.x."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# lightning/fabric/connector.py (2.0): `_PRECISION_INPUT_STR` gained "16-mixed", "bf16-mixed", "32-true",
# ...; 1.9's accelerator connector accepts only ("64", "32", "16", "bf16", 64, 32, 16)
_V2_STRINGS = frozenset({"16-mixed", "bf16-mixed", "32-true", "64-true", "16-true", "bf16-true",
                         "transformer-engine", "transformer-engine-float16"})
_PACKAGES = ("pytorch-lightning", "pytorch_lightning", "lightning")


def _pinned_v1(pctx: PlanContext, script: ParsedPython) -> Optional[Any]:
    for package in _PACKAGES:
        found = pctx.version(package, script)
        if found is not None:
            return found if found.how == "pinned" and not found.at_least(2, 0) else None
    return None


@register
class Lightning2PrecisionOnLightning1(PlanRule):
    code = "PF615"
    name = "lightning2-precision-on-lightning1"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`Trainer(precision=\"bf16-mixed\")` (a Lightning 2 precision string) in a project that pins "
               "Lightning 1.x, which rejects it")
    explanation = """
## What it finds

A Lightning `Trainer(precision=...)` whose value is one of the precision strings
Lightning 2.0 introduced (`"16-mixed"`, `"bf16-mixed"`, `"32-true"`, `"64-true"`,
`"16-true"`, `"bf16-true"`, `"transformer-engine"`), in a project that pins
`pytorch-lightning` (or `lightning`) to a 1.x release (`==1.9.5` in requirements,
`environment.yml`, pyproject or a lock file).

## Why it matters

Lightning 1.x accepts only `64`, `32`, `16`, `"bf16"` (and their string forms): its
accelerator connector checks `precision not in _PRECISION_INPUT` and raises
`MisconfigurationException: Precision 'bf16-mixed' is invalid. Allowed precision values:
('64', '32', '16', 'bf16', 64, 32, 16)` when the Trainer is built, after data and model
set-up (nano-world-model PR 17, "Fix precision string for pytorch-lightning 1.9"). The
`-mixed`/`-true` names came with 2.0 (`_PRECISION_INPUT_STR` in
`lightning/fabric/connector.py`), so code copied from current docs fails on a pinned 1.x.

## How to fix it

On 1.x use `precision="bf16"` / `precision=16`; or upgrade the pin to Lightning 2.x.

## When preflight stays silent

* No Lightning version is pinned, the pin is 2.0 or later, or only a lower bound is given.
* The precision is a 1.x value or not known statically.
"""
    bad_examples = examples("preflight.rules.plan._pf615_examples", "PF615_BAD")
    good_examples = examples("preflight.rules.plan._pf615_examples", "PF615_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            idx = pctx.index(script)
            version = None
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) != "Trainer":
                    continue
                if not (idx.qualify(ast.unparse(call.func)) or "").startswith(("pytorch_lightning", "lightning")):
                    continue
                value = kwarg(call, "precision")
                found = idx.resolve(value) if value is not None else None
                if found is None or found.value not in _V2_STRINGS:
                    continue
                version = version or _pinned_v1(pctx, script)
                if version is None:
                    break
                assert value is not None
                yield pctx.code_finding(self, script, value, (
                    f"`precision={found.value!r}` is a Lightning 2 precision string, but the project pins "
                    f"{version.describe()}: Lightning 1.x accepts only 64, 32, 16 and 'bf16' and raises "
                    f"\"MisconfigurationException: Precision {found.value!r} is invalid\" when this Trainer is built. "
                    "Use `precision=\"bf16\"` / `precision=16` on 1.x, or upgrade Lightning to 2.x"),
                    evidence=[pctx.code_evidence(script, call, "the Lightning Trainer", same_file=True)])
