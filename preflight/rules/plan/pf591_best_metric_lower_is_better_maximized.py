"""PF591 best-metric-lower-is-better-maximized: ``metric_for_best_model`` names a lower-is-better
metric and ``greater_is_better`` is left to a default that maximizes it."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._metric_direction import LOWER_WORDS, SCORE_WORDS, metric_words
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import ArgsSite, args_sites, launch_site

# transformers PR 31142 (released in 4.42.0): greater_is_better defaults to False for every metric
# name ending in "loss"; before it, only "loss" and "eval_loss" were lower-is-better
_SUFFIX_FIXED_IN = (4, 42)
# words of a metric name that mean "lower is better" and that no transformers release recognizes
_LOWER = LOWER_WORDS - {"loss"}


def _lower_word(metric: str) -> Optional[str]:
    """The lower-is-better word of a metric name (``eval_wer`` -> ``wer``), None when the name has
    none or also holds a higher-is-better word (``eval_error_f1``)."""
    words = metric_words(metric)
    if any(w in SCORE_WORDS for w in words):
        return None
    return next((w for w in words if w in _LOWER), None)


def _unpacks(site: ArgsSite) -> bool:
    call = site.call.call if site.call is not None else None
    return isinstance(call, ast.Call) and any(kw.arg is None for kw in call.keywords)


@register
class BestMetricLowerIsBetterMaximized(PlanRule):
    code = "PF591"
    name = "best-metric-lower-is-better-maximized"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`metric_for_best_model` names a lower-is-better metric (`eval_wer`, a `*_loss` before "
               "transformers 4.42) without `greater_is_better=False`: the 'best' checkpoint is the worst")
    explanation = """
## What it finds

TrainingArguments (or a TRL config; in a script, an arguments file or on the launch line)
whose `metric_for_best_model` is a lower-is-better metric and that do not set
`greater_is_better`:

* a name with an error/distance word (`eval_wer`, `cer`, `perplexity`, `mse`, `rmse`,
  `nll`, ...) and no score word, with any transformers version, or
* a name ending in `loss` other than `loss`/`eval_loss` (`eval_squad_loss`) in a project
  that pins transformers before 4.42.

## Why it matters

`TrainingArguments.__post_init__` fills `greater_is_better` only from the metric's name.
Since transformers 4.42 (PR 31142) it is `not metric_for_best_model.endswith("loss")`;
before, it was `metric_for_best_model not in ["loss", "eval_loss"]`. Any other name gets
`greater_is_better=True`, so the Trainer's best checkpoint (`load_best_model_at_end`,
`save_total_limit`'s rotation, which keeps the best one) and `EarlyStoppingCallback` follow
the *highest* WER or validation loss: the run ends by loading its worst checkpoint and
early stopping waits for the metric to rise (the issue behind PR 31142: seven hours of
training kept the checkpoint with the highest `eval_<dataset>_loss`).

## How to fix it

`greater_is_better=False` next to `metric_for_best_model` (the speech-recognition
fine-tuning guides set it with `metric_for_best_model="wer"`).

## When preflight stays silent

* `greater_is_better` is set (either way), or the arguments are unpacked from `**kwargs`.
* The metric is `loss`/`eval_loss`, or ends in `loss` while transformers is not pinned
  before 4.42 (unpinned, a lower bound, or 4.42+ recognize the suffix).
* The name also holds a score word (`f1`, `acc`, `bleu`, `rouge`, ...) or no word preflight
  knows the direction of.
"""
    bad_examples = examples("preflight.rules.plan._pf591_examples", "PF591_BAD")
    good_examples = examples("preflight.rules.plan._pf591_examples", "PF591_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sites = list(args_sites(pctx))
        launch = launch_site(pctx)
        if launch is not None:
            sites.append(launch)
        for site in sites:
            metric = site.values.get("metric_for_best_model")
            if not isinstance(metric, str) or "greater_is_better" in site.values or _unpacks(site):
                continue
            problem = self._problem(pctx, site, metric)
            if problem is not None:
                yield site.finding(pctx, self, "metric_for_best_model", problem)

    @staticmethod
    def _problem(pctx: PlanContext, site: ArgsSite, metric: str) -> Optional[str]:
        name = metric.strip()
        if name.lower() in ("loss", "eval_loss"):
            return None
        if name.lower().endswith("loss"):
            version: Any = pctx.version("transformers", site.script)
            if version is None or version.at_least(*_SUFFIX_FIXED_IN) or \
                    version.how not in ("pinned", "stated by the user"):
                return None
            return (f"`metric_for_best_model=\"{name}\"` without `greater_is_better`, and {version.describe()} "
                    "is before 4.42: that release treats only \"loss\"/\"eval_loss\" as lower-is-better, so "
                    "greater_is_better defaults to True and the best checkpoint (load_best_model_at_end, "
                    "save_total_limit, early stopping) is the one with the HIGHEST loss. Set "
                    "`greater_is_better=False`")
        word = _lower_word(name)
        if word is None:
            return None
        return (f"`metric_for_best_model=\"{name}\"` is lower-is-better ({word}) but `greater_is_better` is not "
                "set: transformers derives it from the name (False only for names ending in \"loss\"), so it is "
                "True and the best checkpoint (load_best_model_at_end, save_total_limit, early stopping) is the "
                f"one with the HIGHEST {word}. Set `greater_is_better=False`")
