"""PF184 warmup-outlasts-max-steps: TrainingArguments with a positive ``max_steps`` and a
``warmup_steps`` at least as large: the whole run is warmup and the learning rate never reaches
the configured value."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, launch_site, literal_number
from preflight.rules.plan._warmup_support import own_scheduler, schedule_name


@register
class WarmupOutlastsMaxSteps(PlanRule):
    code = "PF184"
    name = "warmup-outlasts-max-steps"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("TrainingArguments set `warmup_steps` to at least `max_steps`: the run ends inside the warmup and "
               "the learning rate never reaches `learning_rate`")
    explanation = """
## What it finds

The TrainingArguments of a job (a `TrainingArguments`/`Seq2SeqTrainingArguments`/TRL config
call with literal values, an arguments JSON/YAML file, or the launch line of an
`HfArgumentParser` script) with a positive `max_steps` and a `warmup_steps` step count
(at least 1) that is not below it, typically a warmup copied from a long pretraining
recipe into a short fine-tune (`max_steps=200, warmup_steps=500`).

## Why it matters

`max_steps` fixes the schedule's length (`num_training_steps`). The warmup schedules
(`linear`, `cosine`, `constant_with_warmup`, ...) multiply the learning rate by
`step / warmup_steps` until the warmup ends, so a run that stops at step `max_steps <=
warmup_steps` trains at most at `max_steps / warmup_steps` of the configured rate and never
enters the decay: the learning rate the author tuned is never used and the run under-trains
without an error. Reported in GPT2-Chinese issue 60 (a default warmup of 2000 steps on
shorter runs: "the real lr stays below the configured one and the model hardly converges"),
neural_sp issue 137 (a learning-rate curve "going straight up until the end of training"),
salesforce/LAVIS issue 72, and prime-rl issue 968 (`warmup_steps == max_steps`).

## How to fix it

Lower `warmup_steps` well below `max_steps`, or use `warmup_ratio` (a share of the run,
for example 0.03-0.1) so the warmup follows the run's length.

## When preflight stays silent

* `max_steps` is unset or -1 (the length comes from the epochs and the data, unknown here),
  or either value cannot be read statically.
* `warmup_steps` is below 1 (0, or a float ratio in transformers 5).
* The schedule has no warmup at all (`constant`, `reduce_lr_on_plateau`: PF183's case), or the
  job builds its own scheduler (`create_scheduler` override, `Trainer(optimizers=...)`, a
  DeepSpeed `scheduler` block).
"""
    bad_examples = examples("preflight.rules.plan._pf184_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf184_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the job's TrainingArguments values: each call with literal values, arguments
        file and launch line (``_pf508_support``)."""
        launch = launch_site(pctx)
        hits = []
        for site in [*args_sites(pctx), *([launch] if launch is not None else [])]:
            max_steps = literal_number(site.values.get("max_steps"))
            warmup = literal_number(site.values.get("warmup_steps"))
            if max_steps is None or warmup is None or max_steps <= 0 or warmup < 1 or warmup < max_steps:
                continue
            if schedule_name(site.values.get("lr_scheduler_type")) is not None:
                continue
            hits.append((site, int(max_steps), int(warmup)))
        if not hits or own_scheduler(pctx):
            return
        for site, max_steps, warmup in hits:
            said = " on the launch line" if site is launch else ""
            peak = "only at the last step" if warmup == max_steps else f"at most {max_steps / warmup:.0%} of it"
            finding = site.finding(
                pctx, self, "warmup_steps",
                f"`warmup_steps={warmup}` with `max_steps={max_steps}`{said}: the run stops inside the warmup, so the "
                f"learning rate reaches `learning_rate` {peak} and never decays. Lower `warmup_steps` well below "
                "`max_steps`, or use `warmup_ratio`")
            if finding is not None:
                yield finding
