"""PF546 accumulation-on-engine-accumulation: ``engine.step()`` only every N micro-batches while the
DeepSpeed config's ``gradient_accumulation_steps`` already accumulates."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.accumulation import accumulation
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register
class AccumulationOnEngineAccumulation(PlanRule):
    code = "PF546"
    name = "accumulation-on-engine-accumulation"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`engine.step()` only every N micro-batches while the DeepSpeed config's "
               "`gradient_accumulation_steps` already accumulates")
    explanation = """
## What it finds

A DeepSpeed engine's `step()` guarded by the script's own accumulation window
(`if (step + 1) % args.gradient_accumulation_steps == 0: engine.step()`) with
`engine.backward(loss)` on every micro-batch, while the job's DeepSpeed config sets
`gradient_accumulation_steps` to a number greater than 1.

## Why it matters

The engine accumulates by itself: it counts micro-steps in `engine.step()` (every call
is one micro-batch; it updates the weights on every `gradient_accumulation_steps`-th
call) and scales each loss by 1/`gradient_accumulation_steps` in `backward`. A loop that
calls `step()` only every N micro-batches multiplies the two windows: with N = 4 and
the config's 4 the weights are updated every 16 micro-batches, on a gradient summed
over 16 losses each divided by 4 (four times too large, four times fewer updates), and
the learning-rate schedule advances four times slower (DeepSpeed issue 758: "deepspeed
does all the sorting out internally, so you basically don't need to implement any logic
for gradient accumulation").

## How to fix it

Call `engine.backward(loss)` and `engine.step()` on every micro-batch and let the
config's `gradient_accumulation_steps` decide when the weights change.

## When preflight stays silent

* The config's `gradient_accumulation_steps` is 1, `"auto"` or absent.
* The script steps on every micro-batch, or the guarded `step()` belongs to a torch
  optimizer rather than the engine.
"""
    bad_examples = examples("preflight.rules.plan._pf546_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf546_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        windows = [(cfg, block, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                   if _int(block.get("gradient_accumulation_steps")) and block["gradient_accumulation_steps"] > 1]
        if not windows:
            return
        config, block, prefix = windows[0]
        steps = block["gradient_accumulation_steps"]
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "backward" not in text or "%" not in text:
                continue
            ctx = pctx.file_context(script)
            for site in accumulation(ctx).sites:
                if site.owner.kind != "deepspeed" or site.guard is None or site.step is None:
                    continue
                func = site.step.func
                if not (isinstance(func, ast.Attribute) and isinstance(site.backward.func, ast.Attribute)
                        and ast.unparse(func.value) == ast.unparse(site.backward.func.value)):
                    continue
                window = ast.unparse(site.modulus) if site.modulus is not None else "N"
                yield pctx.code_finding(
                    self, script, site.step,
                    f"`{ast.unparse(site.step)}` runs only every `{window}` micro-batches, but the DeepSpeed config "
                    f"already accumulates `gradient_accumulation_steps` = {steps}: the engine counts micro-batches "
                    f"in `step()` calls and divides each loss by {steps} itself, so the weights change every "
                    f"{window} x {steps} micro-batches on a gradient that is {window} times too large. Call "
                    f"`{ast.unparse(func)}()` after every backward and let the config accumulate",
                    evidence=[pctx.config_evidence(config, (*prefix, "gradient_accumulation_steps"),
                                                   f"the engine accumulates {steps} micro-batches itself")])
