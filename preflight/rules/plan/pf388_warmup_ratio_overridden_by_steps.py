"""PF388 warmup-ratio-overridden-by-steps: TrainingArguments given both a positive ``warmup_steps``
(a step count, >= 1) and a positive ``warmup_ratio``: the steps win and the ratio does nothing."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, launch_site, literal_number


@register
class WarmupRatioOverriddenBySteps(PlanRule):
    code = "PF388"
    name = "warmup-ratio-overridden-by-steps"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = ("TrainingArguments set both a positive `warmup_steps` and a positive `warmup_ratio`: the step count "
               "wins and the ratio does nothing")
    explanation = """
## What it finds

The TrainingArguments of a job (a `TrainingArguments`/`Seq2SeqTrainingArguments`/TRL
config call with literal values, an arguments JSON/YAML file, or the launch line of an
`HfArgumentParser` script) with `warmup_steps` a step count of at least 1 and
`warmup_ratio` above 0, typically one in the script or the shared config and the other
added on the launch line.

## Why it matters

`TrainingArguments.get_warmup_steps` returns `warmup_steps` when it is positive and only
otherwise `ceil(num_training_steps * warmup_ratio)`; the documentation says
`warmup_steps` "overrides any effect of `warmup_ratio`". The author who adds
`--warmup_ratio 0.03` to a launch script whose arguments already fix `warmup_steps: 500`
gets 500 warmup steps, whatever the run's length: on a short fine-tune the learning rate
may never leave the warmup (axolotl, which reads both keys, refuses them together; the
transformers PR 10229 that added `warmup_ratio` made the step count win).

## How to fix it

Keep one of the two: remove `warmup_steps` (or set it to 0) to warm up over a share of the
run, or remove `warmup_ratio`.

## When preflight stays silent

* `warmup_steps` is 0 (the default) or a fraction below 1 (transformers 5 reads a float
  below 1 as a ratio), or `warmup_ratio` is 0.
* A value it cannot read statically (a variable, `args.warmup_steps`).
"""
    bad_examples = examples("preflight.rules.plan._pf388_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf388_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the job's TrainingArguments values: each call with literal values, arguments
        file and launch line (``_pf508_support``)."""
        launch = launch_site(pctx)
        for site in [*args_sites(pctx), *([launch] if launch is not None else [])]:
            values = site.values
            steps = literal_number(values.get("warmup_steps"))
            ratio = literal_number(values.get("warmup_ratio"))
            if steps is None or ratio is None or steps < 1 or ratio <= 0:
                continue
            shown_steps = int(steps) if steps == int(steps) else steps
            said = " on the launch line" if site is launch else ""
            evidence: list[Evidence] = []
            at = getattr(pctx.project, "launch_at", None) if pctx.project is not None else None
            if site is launch and at:
                evidence.append(Evidence(line=at[1], path=at[0], message=(
                    f"the launch line: --warmup_steps {shown_steps} --warmup_ratio {values.get('warmup_ratio')}")))
            finding = site.finding(
                pctx, self, "warmup_ratio",
                f"`warmup_steps={shown_steps}` and `warmup_ratio={values.get('warmup_ratio')}` are both set{said}: "
                f"the Trainer warms up for {shown_steps} steps and ignores the ratio (a positive `warmup_steps` "
                "overrides `warmup_ratio`). Keep one: drop `warmup_steps` (or set it to 0) to warm up over a share "
                "of the run, or drop `warmup_ratio`", evidence=evidence or None)
            if finding is not None:
                yield finding
