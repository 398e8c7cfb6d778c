"""PF568 lightning-removed-epoch-end-hook: a LightningModule implements ``training_epoch_end`` /
``validation_epoch_end`` / ``test_epoch_end`` in a project that requires Lightning 2.0 or later."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._lightning_code import lightning_classes

# pytorch_lightning/trainer/configuration_validator.py (2.0): "Support for `training_epoch_end` has
# been removed in v2.0.0 ... You can use the `on_train_epoch_end` hook instead" (Lightning PR 16520)
_REMOVED = {
    "training_epoch_end": "on_train_epoch_end",
    "validation_epoch_end": "on_validation_epoch_end",
    "test_epoch_end": "on_test_epoch_end",
}
_PACKAGES = ("pytorch-lightning", "lightning")


@register
class LightningRemovedEpochEndHook(PlanRule):
    code = "PF568"
    name = "lightning-removed-epoch-end-hook"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningModule implements `validation_epoch_end` (or `training_`/`test_epoch_end`) while the "
               "project requires Lightning 2.0+, which refuses it")
    explanation = """
## What it finds

A class deriving from `LightningModule` that defines `training_epoch_end`,
`validation_epoch_end` or `test_epoch_end`, in a project whose requirements pin
`pytorch-lightning`/`lightning` to 2.0 or later, or give 2.0 or later as the lower bound
(`pytorch-lightning>=2.0`).

## Why it matters

Lightning 2.0 removed these hooks (PR 16520). The trainer checks for them before the
first step and stops (pytorch_lightning/trainer/configuration_validator.py):
"NotImplementedError: Support for `validation_epoch_end` has been removed in v2.0.0.
`DeepBLAST` implements this method. You can use the `on_validation_epoch_end` hook
instead" (deepblast PR 165, the migration that fixed it). Nothing trains.

## How to fix it

Move the code to `on_train_epoch_end` / `on_validation_epoch_end` / `on_test_epoch_end`
(no `outputs` argument): append what `*_step` returned to a list attribute in the step,
read it in the hook and clear it there.

## When preflight stays silent

* No Lightning version is declared, or the pin (or upper bound of what is allowed, such as
  `pytorch-lightning==1.9.5` or `<2.0`) is before 2.0.
* The method is on a class that is not a LightningModule (a callback's hooks are
  `on_*_epoch_end`), or only the new `on_*_epoch_end` hooks are defined.
"""
    bad_examples = examples("preflight.rules.plan._pf568_examples", "PF568_BAD")
    good_examples = examples("preflight.rules.plan._pf568_examples", "PF568_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "_epoch_end" not in text or "LightningModule" not in text:
                continue
            version = None
            for package in _PACKAGES:
                found = pctx.version(package, script)
                if found is not None:
                    version = found
                    break
            if version is None or not version.at_least(2):
                continue
            fctx = pctx.file_context(script)
            lightning = lightning_classes(fctx)
            for cls in fctx.nodes(ast.ClassDef):
                if cls.name not in lightning:
                    continue
                for item in cls.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in _REMOVED:
                        yield pctx.code_finding(
                            self, script, item,
                            f"`{cls.name}.{item.name}` is a hook Lightning 2.0 removed, and {version.describe()} "
                            f"requires 2.0 or later: the trainer stops before training with \"NotImplementedError: "
                            f"Support for `{item.name}` has been removed in v2.0.0\". Move the code to "
                            f"`{_REMOVED[item.name]}(self)` and collect the step outputs in an attribute you clear "
                            "there")
