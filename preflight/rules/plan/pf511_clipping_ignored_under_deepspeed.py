"""PF511 clipping-ignored-under-deepspeed: ``max_grad_norm`` that DeepSpeed never applies (or contradicts)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, known


@register
class ClippingIgnoredUnderDeepspeed(PlanRule):
    code = "PF511"
    name = "clipping-ignored-under-deepspeed"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = "`max_grad_norm` is set in TrainingArguments but the DeepSpeed config drops or contradicts it"
    explanation = """
## What it finds

`TrainingArguments(max_grad_norm=x)` (x > 0, set explicitly) in a job trained
with a DeepSpeed config that has no `gradient_clipping` key, or one with a
different number.

## Why it matters

Under DeepSpeed the Trainer does not clip: the engine does, with the config's
`gradient_clipping`. The Trainer copies `max_grad_norm` into the config only
where it says `"auto"`; a missing key leaves DeepSpeed's default of 0 (no
clipping at all: axolotl issue 1381, "`max_grad_norm` is ignored when using
DeepSpeed"), and a different number stops the run with a mismatch error.

## How to fix it

`"gradient_clipping": "auto"` in the DeepSpeed config.

## When preflight stays silent

* `gradient_clipping` is `"auto"` or equals `max_grad_norm`; `max_grad_norm` is
  left at its default or not known statically.
"""
    bad_examples = examples("preflight.rules.plan._pf508_examples", "PF511_BAD")
    good_examples = examples("preflight.rules.plan._pf508_examples", "PF511_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        ds = pctx.deepspeed_configs()
        if not ds:
            return
        for site in args_sites(pctx):
            norm = site.values.get("max_grad_norm")
            if norm is None or not known(norm) or isinstance(norm, bool) or not isinstance(norm, (int, float)) \
                    or norm <= 0:
                continue
            for config, block, prefix in ds:
                clip = block.get("gradient_clipping")
                if clip == "auto" or (isinstance(clip, (int, float)) and float(clip) == float(norm)):
                    continue
                if clip is None:
                    msg = (f"`max_grad_norm={norm}` but `{config.path}` has no `gradient_clipping`: under DeepSpeed "
                           "the engine clips, with the config's value (default 0), so no clipping happens. Add "
                           "`\"gradient_clipping\": \"auto\"`")
                else:
                    msg = (f"`max_grad_norm={norm}` but `{config.path}` says `gradient_clipping: {clip}`: the Trainer "
                           "stops with a DeepSpeed/TrainingArguments mismatch. Use `\"auto\"` or the same value")
                yield site.finding(pctx, self, "max_grad_norm", msg,
                                   evidence=[pctx.config_evidence(config, (*prefix,), "the DeepSpeed config")])
