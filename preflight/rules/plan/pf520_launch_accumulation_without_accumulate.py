"""PF520 launch-accumulation-without-accumulate: the launch line sets ``gradient_accumulation_steps > 1``
for an ``Accelerator`` whose loop never enters ``accelerator.accumulate``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, has_unpacking, kwarg, resolve
from preflight.rules.base import examples
from preflight.rules.code.pf403_accumulation_without_accumulate import (
    accumulation_message,
    unhandled_backwards,
)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register
class LaunchAccumulationWithoutAccumulate(PlanRule):
    code = "PF520"
    name = "launch-accumulation-without-accumulate"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("The launch line sets `gradient_accumulation_steps > 1` for an `Accelerator` that never "
               "enters `accelerator.accumulate`")
    explanation = """
## What it finds

`Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)` whose
value is 1 (or unknown) in the code but more than 1 on the launch line
(`accelerate launch train.py --gradient_accumulation_steps 4`), in a script that
trains with `accelerator.backward(...)` and never enters
`with accelerator.accumulate(model):`. PF403 reports the same shape when the code
alone gives the value.

## Why it matters

`accelerator.backward` divides the loss by N, but it is `accelerator.accumulate`
that tells the prepared optimizer to skip the steps in between. Without it the
optimizer steps after every micro-batch on a loss divided by N: the run a user
launched "with accumulation 4" trains with a 4x smaller learning rate and no
accumulation at all (DMD2 issue 23).

## How to fix it

Wrap each training step in `with accelerator.accumulate(model):`, or drop the flag
from the launch line and accumulate by hand.

## When preflight stays silent

* Everything PF403 stays silent on: `accumulate`/`no_sync` in the file, a loop that
  reads `sync_gradients` or steps on its own `% N` window, no `accelerator.backward`.
* The code alone already gives a value > 1 (PF403 reports it there).
* The job runs under DeepSpeed (the plan's sharding is a ZeRO stage): the engine
  accumulates by itself.
"""
    bad_examples = examples("preflight.rules.plan._pf520_examples", "PF520_BAD")
    good_examples = examples("preflight.rules.plan._pf520_examples", "PF520_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if any(str(f.value).startswith("zero") for f in pctx.plan.facts("dist.sharding")):
            return
        for script in pctx.scripts:
            if "backward" not in (script.text if script.text is not None else script.source.text):
                continue
            ctx = pctx.file_context(script)
            backwards = unhandled_backwards(ctx)
            if not backwards:
                continue
            index = pctx.index(script)
            for ctor in accelerators(ctx):
                expr = kwarg(ctor, "gradient_accumulation_steps")
                if expr is None or has_unpacking(ctor):
                    continue
                in_code = resolve(ctx, expr)
                if in_code is not None and _int(in_code.value) and in_code.value > 1:
                    continue  # PF403
                launched = index.resolve(expr)
                if launched is None or launched.kind != "cli" or not _int(launched.value) or launched.value <= 1:
                    continue
                flag = launched.key or "the launch line"
                how = f" (`{ast.unparse(expr)}` = {launched.value}, from `{flag} {launched.value}` on the launch line)"
                evidence = [pctx.code_evidence(script, backwards[0],
                                               f"`accelerator.backward` divides the loss by {launched.value}")]
                yield pctx.code_finding(self, script, expr, accumulation_message(launched.value, how),
                                        evidence=evidence)
