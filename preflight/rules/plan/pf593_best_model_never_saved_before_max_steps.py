"""PF593 best-model-never-saved-before-max-steps: ``load_best_model_at_end`` with a step save period
longer than the whole run (``save_steps`` > ``max_steps``): no checkpoint, no best model."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import ArgsSite, args_sites, known, launch_site

_DEFAULT_SAVE_STEPS = 500  # TrainingArguments.save_steps


def _whole_int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value >= 1 and value.is_integer():
        return int(value)
    return None


@register
class BestModelNeverSavedBeforeMaxSteps(PlanRule):
    code = "PF593"
    name = "best-model-never-saved-before-max-steps"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`load_best_model_at_end=True` with `save_steps` larger than `max_steps`: no checkpoint is saved, "
               "so the best model is never loaded and the last weights are kept silently")
    explanation = """
## What it finds

TrainingArguments (a script's call, an arguments file or the launch line) with
`load_best_model_at_end=True`, the step save strategy (`save_strategy="steps"`, the
default), a literal `max_steps` and a `save_steps` (500 when not given) larger than it.

## Why it matters

With the step strategy the Trainer saves a checkpoint only when `global_step %
save_steps == 0` (`DefaultFlowCallback.on_step_end`); nothing is saved at the last step. A
run shorter than one save period writes no checkpoint, `state.best_model_checkpoint`
stays None, and `load_best_model_at_end` does nothing at the end of training: the
Trainer keeps the last weights without a warning, while the user believes the best
evaluation's weights were restored (transformers issue 27766: "the best model is not
loaded, and the user may be unaware of this behavior"). `TrainingArguments` checks only
that `save_steps` is a multiple of `eval_steps`, which 1000 and 200 are.

## How to fix it

Make `save_steps` (and `eval_steps`) divide the run: `save_steps=200` for
`max_steps=600`, or shorten the period; `save_strategy="best"` (transformers 4.44+) saves
whenever the metric improves.

## When preflight stays silent

* `max_steps` is not set or not a literal (the run's length follows the dataset), or
  `save_steps` is a ratio (a float below 1) or unknown.
* `save_strategy` is `"epoch"`, `"best"` or `"no"` (PF497 reports `"no"`), or
  `load_best_model_at_end` is not True.
"""
    bad_examples = examples("preflight.rules.plan._pf593_examples", "PF593_BAD")
    good_examples = examples("preflight.rules.plan._pf593_examples", "PF593_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sites = list(args_sites(pctx))
        launch = launch_site(pctx)
        if launch is not None:
            sites.append(launch)
        for site in sites:
            problem = self._problem(site)
            if problem is not None:
                key, message = problem
                yield site.finding(pctx, self, key, message)

    @staticmethod
    def _problem(site: ArgsSite) -> Optional[tuple[str, str]]:
        v = site.values
        if v.get("load_best_model_at_end") is not True:
            return None
        call = site.call.call if site.call is not None else None
        if call is not None and any(kw.arg is None for kw in getattr(call, "keywords", [])):
            return None
        strategy = v.get("save_strategy", "steps")
        if not known(strategy) or str(strategy).lower().rsplit(".", 1)[-1] != "steps":
            return None
        max_steps = _whole_int(v.get("max_steps"))
        if max_steps is None or max_steps <= 0:
            return None
        raw = v.get("save_steps", _DEFAULT_SAVE_STEPS)
        save_steps = _whole_int(raw) if known(raw) else None
        if save_steps is None or save_steps <= max_steps:
            return None
        given = "save_steps" in v
        return ("save_steps" if given else "max_steps",
                f"`load_best_model_at_end=True` with `save_steps={save_steps}`{'' if given else ' (the default)'} "
                f"but `max_steps={max_steps}`: the Trainer saves only every {save_steps} steps and not at the "
                "last one, so this run writes no checkpoint, `best_model_checkpoint` stays None and the last "
                "weights are kept instead of the best ones, without a warning. Use a `save_steps` (and "
                "`eval_steps`) that divides the run")
