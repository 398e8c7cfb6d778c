"""PF284 best-save-strategy-keeps-last-weights: ``save_strategy="best"`` with ``load_best_model_at_end=True``
on a transformers release before 5.0, which never reloads the best checkpoint."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, launch_site

_FIXED = (5, 0)  # the fix (transformers PR 44583, March 2026) is in no 4.x release


@register
class BestSaveStrategyKeepsLastWeights(PlanRule):
    code = "PF284"
    name = "best-save-strategy-keeps-last-weights"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`save_strategy=\"best\"` with `load_best_model_at_end=True` on transformers 4.x: the last weights "
               "are kept, not the best")
    explanation = """
## What it finds

`TrainingArguments(save_strategy="best", load_best_model_at_end=True, ...)` (in a
script, an arguments file or on the launch line) in a project that pins transformers
(`transformers==4.55.0`) to a 4.x release.

## Why it matters

With `save_strategy="best"` the Trainer saves a checkpoint whenever the metric
improves, but on these releases it never records that checkpoint as the best one
(`SaveStrategy.BEST` is missing from the branches that set `best_global_step` /
`best_model_checkpoint`), so `load_best_model_at_end` finds no best checkpoint and
silently keeps the weights of the last step: "it doesn't show any error, but it
doesn't load the best, but the last" (transformers PR 40221; fixed by PR 44583, merged
in March 2026, after the last 4.x release). The model saved and evaluated after
`train()` is not the best one.

## How to fix it

Save on the evaluation schedule (`save_strategy="epoch"` or `"steps"` matching
`eval_strategy`, with `save_total_limit` to bound the disk), so that
`load_best_model_at_end` can restore the best checkpoint; or upgrade transformers.

## When preflight stays silent

* No transformers version is pinned, or the pin is 5.0 or later, or only a lower
  bound is declared (the installed release is not known).
* `load_best_model_at_end` is not `True`, or the save strategy is not `"best"`.
"""
    bad_examples = examples("preflight.rules.plan._pf284_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf284_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        for site in [*args_sites(pctx), *([launch] if launch is not None else [])]:
            v = site.values
            if v.get("load_best_model_at_end") is not True or v.get("save_strategy") != "best":
                continue
            found = pctx.version("transformers", site.script)
            if found is None or found.how != "pinned" or found.at_least(*_FIXED):
                continue
            yield site.finding(
                pctx, self, "save_strategy",
                f"`save_strategy=\"best\"` with `load_best_model_at_end=True` on {found.describe()}: this release "
                "saves the improving checkpoints but never records one as the best, so at the end of training "
                "the Trainer silently keeps the last weights, and the model saved and evaluated afterwards is not "
                "the best one. Save on the evaluation schedule (`save_strategy` equal to `eval_strategy`, with "
                "`save_total_limit`), or upgrade transformers")
