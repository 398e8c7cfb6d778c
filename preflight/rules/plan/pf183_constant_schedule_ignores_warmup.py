"""PF183 constant-schedule-ignores-warmup: TrainingArguments with ``lr_scheduler_type="constant"``
(or ``"reduce_lr_on_plateau"``) and a positive ``warmup_steps``/``warmup_ratio``: transformers'
``get_scheduler`` builds those schedules without the warmup, so the run starts at the full rate."""

from __future__ import annotations

from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, launch_site, literal_number
from preflight.rules.plan._warmup_support import own_scheduler, schedule_name


def _warmup(values: dict) -> Optional[str]:
    steps = literal_number(values.get("warmup_steps"))
    ratio = literal_number(values.get("warmup_ratio"))
    if steps is not None and steps > 0:
        shown = int(steps) if steps == int(steps) else steps
        return f"warmup_steps={shown}"
    if ratio is not None and ratio > 0:
        return f"warmup_ratio={values.get('warmup_ratio')}"
    return None


@register
class ConstantScheduleIgnoresWarmup(PlanRule):
    code = "PF183"
    name = "constant-schedule-ignores-warmup"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`lr_scheduler_type=\"constant\"` with a positive `warmup_steps`/`warmup_ratio`: the constant "
               "schedule has no warmup, so the run starts at the full learning rate")
    explanation = """
## What it finds

The TrainingArguments of a job (a `TrainingArguments`/`Seq2SeqTrainingArguments`/TRL config
call with literal values, an arguments JSON/YAML file, or the launch line of an
`HfArgumentParser` script) with `lr_scheduler_type` `"constant"` (or
`"reduce_lr_on_plateau"`) and a positive `warmup_steps` or `warmup_ratio`, such as the
QLoRA-style launch line `--lr_scheduler_type constant --warmup_ratio 0.03`.

## Why it matters

`transformers.get_scheduler` returns `get_constant_schedule(optimizer)` for `"constant"`
(and the plateau scheduler for `"reduce_lr_on_plateau"`) before it looks at
`num_warmup_steps`: the warmup the author asked for is dropped without a warning and the
first optimizer steps run at the full learning rate, the steps warmup exists to protect
(Adam's second moments are still empty; fine-tunes of large models diverge or lose their
pretrained features there). The warmup schedule is a different name,
`"constant_with_warmup"`. The trap is reported again and again: sd_dreambooth_extension
PR 557 ("warmup steps applies to all schedulers except the constant"), kohya_ss PR 2292
and sd-scripts (which now raise on a warmup given to `constant`), Akegarasu/lora-scripts
PR 78, and the LLaMA-Factory issue 2495 thread about a schedule that did not do what
`lr_scheduler_type` said.

## How to fix it

Use `lr_scheduler_type="constant_with_warmup"` to keep the warmup, or drop
`warmup_steps`/`warmup_ratio` if no warmup is wanted.

## When preflight stays silent

* The scheduler is another one (`linear`, `cosine`, `constant_with_warmup`, ...), or a value
  it cannot read statically (a variable, `args.lr_scheduler_type`).
* `warmup_steps` and `warmup_ratio` are 0 (their defaults) or unknown.
* The job builds its own scheduler: a Trainer subclass overriding `create_scheduler` /
  `create_optimizer_and_scheduler`, `Trainer(optimizers=(...))`, or a DeepSpeed config
  with a `scheduler` block (DeepSpeed's scheduler replaces the Trainer's).
"""
    bad_examples = examples("preflight.rules.plan._pf183_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf183_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the job's TrainingArguments values: each call with literal values, arguments
        file and launch line (``_pf508_support``)."""
        launch = launch_site(pctx)
        sites = [*args_sites(pctx), *([launch] if launch is not None else [])]
        hits = []
        for site in sites:
            schedule = schedule_name(site.values.get("lr_scheduler_type"))
            warmup = _warmup(site.values) if schedule is not None else None
            if schedule is not None and warmup is not None:
                hits.append((site, schedule, warmup))
        if not hits or own_scheduler(pctx):
            return
        for site, schedule, warmup in hits:
            said = " on the launch line" if site is launch else ""
            fix = "constant_with_warmup" if schedule == "constant" else "a warmup schedule (`linear`, `cosine`, ...)"
            finding = site.finding(
                pctx, self, "lr_scheduler_type",
                f"`lr_scheduler_type=\"{schedule}\"` with `{warmup}`{said}: transformers builds the "
                f"`{schedule}` schedule without any warmup (`get_scheduler` ignores `num_warmup_steps` for it), so "
                f"training starts at the full learning rate. Use `{fix}` to keep the warmup, or drop the warmup "
                "setting")
            if finding is not None:
                yield finding
