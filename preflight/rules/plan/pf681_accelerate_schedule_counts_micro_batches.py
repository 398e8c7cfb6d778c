"""PF681 accelerate-schedule-counts-micro-batches: an LR schedule sized in micro-batches
(``len(train_dataloader) * num_epochs``) prepared by Accelerate under ``accelerator.accumulate`` with more
than one accumulation step, on accelerate 0.16 or later: the prepared scheduler advances only when the
optimizer steps, so the schedule runs a fraction of its length."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version
from preflight.rules.plan._release_defects import _spec
from preflight.rules.plan._release_features import calls, micro_batch_schedules, schedule_length
from preflight.sources import ParsedPython

# the job accumulates through Accelerate: an Accelerator (or plugin) with a window above 1, and `accumulate`
_ACCUMULATES = {"all": [(_spec("Accelerator", kw={"gradient_accumulation_steps": ("gt", 1)}),
                         _spec("GradientAccumulationPlugin", kw={"num_steps": ("gt", 1)})),
                        _spec("accumulate", attr=True)]}


def _prepared_names(script: ParsedPython) -> set[str]:
    """The names passed to ``*.prepare(...)`` in ``script``."""
    out: set[str] = set()
    for call in ast.walk(script.tree):
        if isinstance(call, ast.Call) and call_last(call) == "prepare" and isinstance(call.func, ast.Attribute):
            out.update(ast.unparse(a) for a in call.args)
    return out


def _target(script: ParsedPython, call: ast.AST) -> Optional[str]:
    """The name the scheduler construction is assigned to."""
    for node in ast.walk(script.tree):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1:
            return ast.unparse(node.targets[0])
    return None


@register
class AccelerateScheduleCountsMicroBatches(PlanRule):
    code = "PF681"
    name = "accelerate-schedule-counts-micro-batches"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("an LR schedule sized in micro-batches (`len(train_dataloader) * epochs`) is prepared by Accelerate "
               "under `accelerator.accumulate`: it advances once per optimizer step and runs 1/N of its length")
    explanation = """
## What it finds

A job that accumulates gradients through Accelerate (`Accelerator(gradient_accumulation_steps=N)`
with N > 1, or a `GradientAccumulationPlugin(num_steps=N)`, and `with accelerator.accumulate(model):`)
and passes an LR scheduler to `accelerator.prepare` whose length counts the loader's batches with
no division by the accumulation steps (`num_training_steps=len(train_dataloader) * num_epochs`,
`total_steps=`, `T_max=`).

## Why it matters

Since accelerate 0.16 (PR 999) the prepared `AcceleratedScheduler.step` returns early unless
`gradient_state.sync_gradients`: it advances once per optimizer step (times the number of
processes, whose loader shards are that much shorter), not once per micro-batch. A schedule sized in
micro-batches then runs only 1/N of its length: the linear decay of accelerate issue 1160 (0.16.0,
`--gradient_accumulation_steps 5`) ends with the learning rate still at about 80% of its peak.

## How to fix it

Size the schedule in optimizer steps: `math.ceil(len(train_dataloader) / gradient_accumulation_steps)
* num_epochs` (the `num_update_steps_per_epoch` of the transformers and diffusers `no_trainer` scripts).

## When preflight stays silent

* accelerate is pinned below 0.16: those releases step the prepared scheduler on every micro-batch,
  so a schedule in micro-batches is right (accelerate PR 500); PF384 reports the opposite mistake.
* The length divides by something (the accumulation steps) or is a step count of its own
  (`args.max_train_steps`, a constant): its unit cannot be read.
* The scheduler is not prepared (stepped by hand), or the accumulation window is 1 or unknown.
"""
    bad_examples = examples("preflight.rules.plan._pf681_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf681_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        hit = calls(pctx, _ACCUMULATES)
        if hit is None:
            return
        steps = hit[2].get("n")
        for script, call in micro_batch_schedules(pctx):
            version = pinned_version(pctx, "accelerate", script)
            if version is not None and not version.at_least(0, 16):
                continue
            if not isinstance(call, ast.Call):
                continue
            name = _target(script, call)
            length = schedule_length(call)
            if name is None or name not in _prepared_names(script) or length is None:
                continue
            yield pctx.file_context(script).finding(
                self, length,
                f"the schedule `{name}` is sized in micro-batches (`{ast.unparse(length)}`), but the scheduler "
                f"prepared by Accelerate advances only when the optimizer steps, once every {steps} micro-batches "
                f"under `accelerator.accumulate`: it runs 1/{steps} of its length (accelerate issue 1160). Size it "
                "in optimizer steps: divide the batches by the accumulation steps")
