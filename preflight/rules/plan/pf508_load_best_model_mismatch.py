"""PF508 load-best-model-mismatch: ``load_best_model_at_end`` with evaluations and saves that do not line up."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import ArgsSite, args_sites, known, launch_site


@register
class LoadBestModelMismatch(PlanRule):
    code = "PF508"
    name = "load-best-model-mismatch"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "`load_best_model_at_end` with an eval strategy/steps that do not match the save strategy/steps"
    explanation = """
## What it finds

`TrainingArguments(load_best_model_at_end=True, ...)` (in a script or an
arguments file) whose evaluation strategy differs from its save strategy
(`eval_strategy="no"` with `save_strategy="epoch"`), or, both being `"steps"`,
whose `save_steps` is not a multiple of `eval_steps`.

## Why it matters

The best checkpoint can only be tracked when every save coincides with an
evaluation. `TrainingArguments` raises `ValueError: --load_best_model_at_end
requires the save and eval strategy to match` (or "requires the saving steps to
be a round multiple of the evaluation steps") when the job starts (transformers
PR 12786; LlamaFactory issue 8133; DeepKE issue 394).

## How to fix it

Use the same strategy for both, and a `save_steps` that is a multiple of `eval_steps`.

## When preflight stays silent

* Values it cannot read statically; `save_strategy="best"`.
"""
    bad_examples = examples("preflight.rules.plan._pf508_examples", "PF508_BAD")
    good_examples = examples("preflight.rules.plan._pf508_examples", "PF508_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        for site in [*args_sites(pctx), *([launch] if launch is not None else [])]:
            v = site.values
            if v.get("load_best_model_at_end") is not True:
                continue
            eval_key = "eval_strategy" if "eval_strategy" in v else "evaluation_strategy"
            evals = v.get(eval_key, "no")
            saves = v.get("save_strategy", "steps")
            if not (known(evals) and known(saves)) or not isinstance(evals, str) or not isinstance(saves, str):
                continue
            if saves == "best":
                continue
            if evals != saves:
                yield site.finding(
                    pctx, self, eval_key if eval_key in v else "load_best_model_at_end",
                    f"`load_best_model_at_end=True` with evaluation strategy {evals!r} and save strategy "
                    f"{saves!r}{_from_launch(site, eval_key)}: TrainingArguments raises \"--load_best_model_at_end "
                    "requires the save and eval strategy to match\" when the job starts. Use the same strategy for "
                    "both")
                continue
            if evals == "steps":
                save_steps = v.get("save_steps", 500)
                eval_steps = v.get("eval_steps", v.get("logging_steps", 500))
                if isinstance(save_steps, int) and isinstance(eval_steps, int) and not isinstance(save_steps, bool) \
                        and eval_steps > 0 and save_steps % eval_steps:
                    yield site.finding(
                        pctx, self, "save_steps" if "save_steps" in v else "eval_steps",
                        f"`load_best_model_at_end=True` with `save_steps={save_steps}` and "
                        f"`eval_steps={eval_steps}`: saves must fall on evaluations, so TrainingArguments raises "
                        "\"requires the saving steps to be a round multiple of the evaluation steps\". Make "
                        "`save_steps` a multiple of `eval_steps`")


def _from_launch(site: ArgsSite, eval_key: str) -> str:
    if site.anchor is None:
        return ""
    left = [] if eval_key in site.values else [f"`--{eval_key}`"]
    left += [] if "save_strategy" in site.values else ["`--save_strategy`"]
    said = f", which leaves {' and '.join(left)} out (defaults)" if left else ""
    return f" (the TrainingArguments this parser reads from the launch line{said})"
