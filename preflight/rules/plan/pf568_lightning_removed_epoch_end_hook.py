"""PF568 lightning-removed-epoch-end-hook: a LightningModule implements ``training_epoch_end`` /
``validation_epoch_end`` / ``test_epoch_end`` (removed in Lightning 2.0) or ``on_epoch_start`` /
``on_epoch_end`` (removed in 1.8) in a project whose requirements let pip install that release or later."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._lightning_code import lightning_classes
from preflight.rules.plan._lightning_allowed import lightning_allowed, torch_holds_back

# pytorch_lightning/trainer/configuration_validator.py (2.0): "Support for `training_epoch_end` has
# been removed in v2.0.0 ... You can use the `on_train_epoch_end` hook instead" (Lightning PR 16520)
_REMOVED = {
    "training_epoch_end": "on_train_epoch_end",
    "validation_epoch_end": "on_validation_epoch_end",
    "test_epoch_end": "on_test_epoch_end",
}
# pytorch_lightning/trainer/configuration_validator.py (1.8, `_check_on_epoch_start_end`): "The
# `LightningModule.on_epoch_end` hook was removed in v1.8. Please use
# `LightningModule.on_<train/validation/test>_epoch_end` instead" (RuntimeError; CTCNet issue 8)
_REMOVED_1_8 = {
    "on_epoch_start": "on_train_epoch_start",
    "on_epoch_end": "on_train_epoch_end",
}
_ALL = {
    **{hook: ((2, 0), new, f"\"NotImplementedError: Support for `{hook}` has been removed in v2.0.0\"")
       for hook, new in _REMOVED.items()},
    **{hook: ((1, 8), new, f"\"RuntimeError: The `LightningModule.{hook}` hook was removed in v1.8\"")
       for hook, new in _REMOVED_1_8.items()},
}
_PACKAGES = ("pytorch-lightning", "lightning")


@register
class LightningRemovedEpochEndHook(PlanRule):
    code = "PF568"
    name = "lightning-removed-epoch-end-hook"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningModule implements `validation_epoch_end` (or `training_`/`test_epoch_end`, or "
               "`on_epoch_end`) while the project's requirements admit the Lightning release that removed it")
    explanation = """
## What it finds

A class deriving from `LightningModule` that defines `training_epoch_end`,
`validation_epoch_end` or `test_epoch_end` (removed in 2.0), or `on_epoch_start` /
`on_epoch_end` (removed in 1.8), in a project whose requirements let pip install that
release or later: `pytorch-lightning`/`lightning` pinned to it or later, a range whose upper
bound admits it (`pytorch-lightning>=1.7,<2.0` installs 1.9), or the package listed with no
upper bound at all (a bare `pytorch_lightning` line: a fresh install gets the newest release).

## Why it matters

Lightning 2.0 removed these hooks (PR 16520). The trainer checks for them before the
first step and stops (pytorch_lightning/trainer/configuration_validator.py):
"NotImplementedError: Support for `validation_epoch_end` has been removed in v2.0.0.
`DeepBLAST` implements this method. You can use the `on_validation_epoch_end` hook
instead" (deepblast PR 165, the migration that fixed it). Nothing trains. RAVE issue 219: its
requirements listed `pytorch_lightning` unpinned, and every install made after 2.0 was released
stopped there until the maintainer pinned 1.9.0. Lightning 1.8 did the same to the
module's `on_epoch_start`/`on_epoch_end` ("RuntimeError: The `LightningModule.on_epoch_end` hook
was removed in v1.8", configuration_validator.py `_check_on_epoch_start_end`; CTCNet issue 8,
requirements `pytorch-lightning>=1.7,<2.0`).

## How to fix it

Move the code to `on_train_epoch_end` / `on_validation_epoch_end` / `on_test_epoch_end`
(no `outputs` argument): append what `*_step` returned to a list attribute in the step,
read it in the hook and clear it there.

## When preflight stays silent

* No Lightning requirement is found, or the pin (or upper bound of what is allowed, such as
  `pytorch-lightning==1.9.5` or `<2.0`) is before the release that removed the hook.
* torch is pinned older than that Lightning release accepts (below 1.11 for 2.0, below 1.9 for
  1.8): pip resolves an older Lightning that still has the hook.
* The method is on a class that is not a LightningModule (a callback's hooks are
  `on_*_epoch_end`), or only the new `on_*_epoch_end` hooks are defined.
"""
    bad_examples = examples("preflight.rules.plan._pf568_examples", "PF568_BAD")
    good_examples = examples("preflight.rules.plan._pf568_examples", "PF568_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "_epoch_" not in text or "LightningModule" not in text:
                continue
            allowed = None
            for package in _PACKAGES:
                allowed = lightning_allowed(package, Path(script.source.path).parent, pctx.project.root)
                if allowed is not None:
                    break
            if allowed is None:
                continue
            torch = pctx.version("torch", script)
            fctx = pctx.file_context(script)
            lightning = lightning_classes(fctx)
            for cls in fctx.nodes(ast.ClassDef):
                if cls.name not in lightning:
                    continue
                for item in cls.body:
                    if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) or item.name not in _ALL:
                        continue
                    release, instead, error = _ALL[item.name]
                    if not allowed.admits(*release) or torch_holds_back(torch, release):
                        continue
                    shown = ".".join(map(str, release))
                    yield pctx.code_finding(
                        self, script, item,
                        f"`{cls.name}.{item.name}` is a hook Lightning {shown} removed, and the requirement "
                        f"{allowed.describe()} lets pip install {shown} or later: the trainer stops before "
                        f"training with {error}. Move the code to `{instead}(self)` and collect the step outputs "
                        "in an attribute you clear there (or cap the requirement below "
                        f"{shown})")
