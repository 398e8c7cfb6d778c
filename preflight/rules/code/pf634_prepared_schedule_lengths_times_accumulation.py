"""PF634 prepared-schedule-lengths-times-accumulation: a schedule prepared by Accelerate is sized in
micro-batches (``* gradient_accumulation_steps``) while Accelerate steps it once per optimizer step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, kwarg
from preflight.rules._pf414_support import last_name
from preflight.rules.base import Rule, examples

# the length arguments of transformers'/diffusers' get_scheduler and get_*_schedule_with_warmup and of
# torch's schedulers that are counted in steps
_LENGTHS = ("num_warmup_steps", "num_training_steps", "num_cycles_steps", "total_steps", "T_max", "total_iters",
            "warmup_steps", "max_steps")


def _times_accumulation(expr: ast.expr, given: set[str]) -> Optional[ast.expr]:
    """The ``gradient_accumulation_steps`` operand of a product in ``expr`` (a name saying so, or the
    expression the Accelerator is given: ``Accelerator(gradient_accumulation_steps=args.accum)``)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for side in (node.left, node.right):
                if isinstance(side, (ast.Name, ast.Attribute)) and (last_name(side) in (
                        "gradient_accumulation_steps", "grad_accum_steps", "accumulation_steps")
                        or ast.unparse(side) in given):
                    return side
    return None


@register
class PreparedScheduleLengthsTimesAccumulation(Rule):
    code = "PF634"
    needs_text = ("gradient_accumulation_steps", "prepare")
    name = "prepared-schedule-lengths-times-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("An LR schedule sized `* gradient_accumulation_steps` goes through `accelerator.prepare` while the "
               "Accelerator accumulates: the prepared scheduler steps only on optimizer steps")
    explanation = """
## What it finds

An `Accelerator(gradient_accumulation_steps=...)` job whose learning-rate scheduler is built
with a length multiplied by the accumulation steps
(`num_warmup_steps=args.lr_warmup_steps * args.gradient_accumulation_steps`,
`num_training_steps=max_train_steps * args.gradient_accumulation_steps`) and passed to
`accelerator.prepare(...)`, while the loop trains under `accelerator.accumulate(...)`.

## Why it matters

The prepared scheduler (`AcceleratedScheduler.step`) does nothing while
`gradient_state.sync_gradients` is False: it advances only when the optimizer really
steps, once per accumulation cycle. A schedule sized in micro-batches is therefore
`gradient_accumulation_steps` times too long: the warmup lasts that many times longer than
asked and the decay ends a fraction of the way through (diffusers issue 4405 on the
ControlNet script: "the scheduler cannot decrease the learning rate to zero").

## How to fix it

Size the schedule in optimizer steps (`max_train_steps`, `lr_warmup_steps`; multiplied by
`accelerator.num_processes` when batches are not split), as the current diffusers scripts do.

## When preflight stays silent

* The Accelerator is built without `gradient_accumulation_steps` (the loop accumulates by
  hand and steps the scheduler every micro-batch, so a length in micro-batches is right),
  or with `step_scheduler_with_optimizer=False`.
* The scheduler is not prepared, or the loop never uses `accelerator.accumulate`.
"""
    bad_examples = examples("preflight.rules.code._pf634_examples", "PF634_BAD")
    good_examples = examples("preflight.rules.code._pf634_examples", "PF634_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        accs = [a for a in accelerators(ctx) if kwarg(a, "gradient_accumulation_steps") is not None
                and not (isinstance(kwarg(a, "step_scheduler_with_optimizer"), ast.Constant)
                         and getattr(kwarg(a, "step_scheduler_with_optimizer"), "value", True) is False)]
        if not accs:
            return
        calls = ctx.nodes(ast.Call)
        if not any(isinstance(c.func, ast.Attribute) and c.func.attr == "accumulate" for c in calls):
            return
        given = {ast.unparse(v) for a in accs if (v := kwarg(a, "gradient_accumulation_steps")) is not None
                 and isinstance(v, (ast.Name, ast.Attribute))}
        prepared: set[str] = set()
        for c in calls:
            if isinstance(c.func, ast.Attribute) and c.func.attr == "prepare":
                prepared |= {ast.unparse(a) for a in c.args if isinstance(a, (ast.Name, ast.Attribute))}
        for assign in ctx.nodes(ast.Assign):
            if not (isinstance(assign.value, ast.Call) and len(assign.targets) == 1
                    and ast.unparse(assign.targets[0]) in prepared):
                continue
            call = assign.value
            name = last_name(call.func)
            if not ("schedule" in name.lower() or name.endswith("LR")):
                continue
            for key in _LENGTHS:
                value = kwarg(call, key)
                if value is None:
                    continue
                factor = _times_accumulation(value, given)
                if factor is None:
                    continue
                yield ctx.finding(
                    self, value,
                    f"`{key}={ast.unparse(value)}` sizes `{name}` in micro-batches, but the scheduler goes through "
                    "`accelerator.prepare` and the Accelerator accumulates: the prepared scheduler advances only "
                    "when the optimizer steps (once per accumulation cycle), so this length is "
                    f"`{ast.unparse(factor)}` times too long (a longer warmup, a decay that never finishes). Size "
                    "it in optimizer steps",
                    evidence=[ctx.evidence(accs[0], "the Accelerator accumulates gradients here")])
