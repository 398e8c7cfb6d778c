"""PF536 early-stopping-without-best-model: ``EarlyStoppingCallback`` with TrainingArguments that its
``on_train_begin`` assertions reject."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import ArgsSite, args_sites, known, launch_site

_REMOVED_IN = (4, 48)  # transformers PR 35101 (released in 4.48.0): the load_best_model_at_end assert became a warning


def _declared_below(pctx: PlanContext, script: Any) -> Optional[str]:
    """How the project pins transformers below 4.48, or None (unpinned, a lower bound, or 4.48+)."""
    found = pctx.version("transformers", script)
    if found is None or found.at_least(*_REMOVED_IN) or found.how not in ("pinned", "stated by the user"):
        return None
    return found.describe()


@register
class EarlyStoppingWithoutBestModel(PlanRule):
    code = "PF536"
    name = "early-stopping-without-best-model"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "`EarlyStoppingCallback` with TrainingArguments it rejects at train start (no evaluation, no metric, no best model)"
    explanation = """
## What it finds

A script that gives `EarlyStoppingCallback(...)` to the HF Trainer while its TrainingArguments (the
script's one `TrainingArguments(...)` call with literal values, or the launch line that an
`HfArgumentParser` reads) leave:

* the evaluation strategy at `"no"` (the default), or
* both `metric_for_best_model` and `load_best_model_at_end` unset, or
* `load_best_model_at_end` off while the project pins transformers below 4.48.

## Why it matters

`EarlyStoppingCallback.on_train_begin` (transformers `trainer_callback.py`) asserts
`args.metric_for_best_model is not None` ("EarlyStoppingCallback requires metric_for_best_model to be
defined") and `args.eval_strategy != IntervalStrategy.NO` ("requires IntervalStrategy of steps or
epoch"); `metric_for_best_model` only defaults to `"loss"` when `load_best_model_at_end=True`
(`TrainingArguments.__post_init__`). Before transformers 4.48 it also asserted
`args.load_best_model_at_end` ("EarlyStoppingCallback requires load_best_model_at_end = True"; PR 35101
made that a warning). The run stops with an AssertionError before the first step (axolotl issues 73
and 28).

## How to fix it

Evaluate on a schedule and name the metric; on transformers before 4.48 also load the best model,
saving on the evaluation schedule:

```python
args = TrainingArguments(..., eval_strategy="steps", eval_steps=50, save_strategy="steps", save_steps=50,
                         load_best_model_at_end=True, metric_for_best_model="eval_loss")
```

## When preflight stays silent

* A value it cannot read (`**kwargs`, a variable it cannot follow), several TrainingArguments calls
  in the script, or arguments read from a file or `sys.argv` by hand.
* `load_best_model_at_end` off with `metric_for_best_model` set, unless transformers is pinned below
  4.48 (a lower bound such as `transformers>=4.30` may install a release that only warns).
"""
    bad_examples = examples("preflight.rules.plan._pf536_examples", "PF536_BAD")
    good_examples = examples("preflight.rules.plan._pf536_examples", "PF536_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        sites = list(args_sites(pctx))
        for script in pctx.scripts:
            callbacks = [s for s in pctx.index(script).calls if s.last == "EarlyStoppingCallback"]
            if not callbacks:
                continue
            mine = [s for s in sites if s.script is script]
            if launch is not None and launch.script is script:
                mine.append(launch)
            if len(mine) != 1 or _unpacks(mine[0]):
                continue
            problem = self._problem(pctx, mine[0], script)
            if problem is None:
                continue
            site = mine[0]
            where = site.call.call if site.call is not None else site.anchor
            evidence = [pctx.code_evidence(script, where, "the TrainingArguments the Trainer runs with")] \
                if where is not None else None
            yield pctx.code_finding(self, script, callbacks[0].call, problem, evidence=evidence)

    @staticmethod
    def _problem(pctx: PlanContext, site: ArgsSite, script: Any) -> Optional[str]:
        v = site.values
        keys = ("eval_strategy", "evaluation_strategy", "load_best_model_at_end", "metric_for_best_model")
        if any(not known(v[k]) for k in keys if k in v):
            return None
        evals = v.get("eval_strategy", v.get("evaluation_strategy", "no"))
        best = v.get("load_best_model_at_end", False)
        metric = v.get("metric_for_best_model")
        launch = " (the TrainingArguments read from the launch line)" if site.anchor is not None else ""
        if evals in ("no", "IntervalStrategy.NO") or evals is False:
            return ("`EarlyStoppingCallback` with TrainingArguments that never evaluate (evaluation strategy "
                    f"\"no\"){launch}: its on_train_begin asserts \"EarlyStoppingCallback requires IntervalStrategy "
                    "of steps or epoch\" and training stops before the first step. Set `eval_strategy=\"steps\"` "
                    "(or \"epoch\") and `metric_for_best_model`")
        if best is True:
            return None
        if metric is None:
            return ("`EarlyStoppingCallback` with TrainingArguments that set neither `metric_for_best_model` nor "
                    f"`load_best_model_at_end`{launch}: the metric only defaults to \"loss\" with "
                    "`load_best_model_at_end=True`, so on_train_begin asserts (\"requires metric_for_best_model to "
                    "be defined\"; before transformers 4.48 \"requires load_best_model_at_end = True\") and training "
                    "stops before the first step. Set `load_best_model_at_end=True` with a matching save schedule, "
                    "or `metric_for_best_model`")
        pinned = _declared_below(pctx, script)
        if pinned is None:
            return None
        return (f"`EarlyStoppingCallback` while `load_best_model_at_end` is off{launch}, and the project pins "
                f"{pinned}: before 4.48 on_train_begin asserts \"EarlyStoppingCallback requires "
                "load_best_model_at_end = True\" and training stops before the first step. Set "
                "`load_best_model_at_end=True` with saves on the evaluation schedule")


def _unpacks(site: ArgsSite) -> bool:
    call = site.call.call if site.call is not None else None
    return call is not None and any(kw.arg is None for kw in call.keywords)
