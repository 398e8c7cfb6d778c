"""PF522 loss-divided-under-deepspeed: a loss divided by the accumulation steps by hand in a job
whose DeepSpeed engine divides it by the same steps again."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.accumulation import accumulation
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan import Fact
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import resolve
from preflight.rules.base import examples
from preflight.rules.code._pf108_support import short


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deepspeed_window(pctx: PlanContext) -> Optional[Fact]:
    """The DeepSpeed config's ``gradient_accumulation_steps`` (> 1) of a job that runs a ZeRO
    engine from that same config; None otherwise."""
    engines = {f.source.path for f in pctx.plan.facts("dist.sharding")
               if str(f.value).startswith("zero") and f.source.kind == "config" and f.source.path}
    for fact in pctx.plan.facts("batch.grad_accum"):
        src = fact.source
        if src.kind == "config" and src.path in engines and (src.key or "").endswith(
                "gradient_accumulation_steps") and _int(fact.value) and fact.value > 1:
            return fact
    return None


@register
class LossDividedUnderDeepspeed(PlanRule):
    code = "PF522"
    name = "loss-divided-under-deepspeed"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "accelerate")
    summary = ("The loss is divided by the accumulation steps by hand, and the DeepSpeed engine divides it "
               "by the same steps again")
    explanation = """
## What it finds

`loss = loss / N` before `accelerator.backward(loss)` (or a DeepSpeed engine's
`engine.backward(loss)`) in a job that runs under DeepSpeed, where N is the
DeepSpeed config's `gradient_accumulation_steps` (more than 1): the same number,
or an argument the launch line sets to it, or the engine's or accelerator's own
`gradient_accumulation_steps`.

## Why it matters

The DeepSpeed engine's `backward` divides the loss by its config's
`gradient_accumulation_steps` itself (`scale_wrt_gas=True`, its default), and
Accelerate hands `accelerator.backward` to that engine. Dividing by hand as
well makes the gradients N times too small (accelerate issue 1767: the
DeepSpeed-with-config example divided by 16 twice). With SGD that is an N-times
smaller learning rate; with Adam, clipping thresholds, weight decay and epsilon
act on shrunken gradients.

## How to fix it

Remove the manual division and let the engine scale.

## When preflight stays silent

* The job does not run a DeepSpeed engine (no ZeRO stage in a DeepSpeed config
  or an accelerate config's `deepspeed_config`), or that config's
  `gradient_accumulation_steps` is 1, `"auto"` or missing.
* The divisor is another number or an expression preflight cannot equate with
  the config's steps (tokens in the batch, the world size).
* The backward is `loss.backward()` on a plain module (PF424 covers a backward
  that bypasses the engine).
"""
    bad_examples = examples("preflight.rules.plan._pf522_examples", "PF522_BAD")
    good_examples = examples("preflight.rules.plan._pf522_examples", "PF522_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        window = deepspeed_window(pctx)
        if window is None:
            return
        n = window.value
        where = f"{window.source.path}: {window.source.key} = {n}"
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "backward" not in text:
                continue
            ctx = pctx.file_context(script)
            index = pctx.index(script)
            for site in accumulation(ctx).sites:
                if site.owner.kind not in ("accelerate", "deepspeed"):
                    continue
                receiver = site.backward.func.value if isinstance(site.backward.func, ast.Attribute) else None
                for scaling in site.trace.scalings:
                    if scaling.divisor is None or not self._same(ctx, index, scaling.divisor, receiver, n):
                        continue
                    message = (
                        f"The loss is divided by `{short(scaling.divisor, 40)}` ({scaling.kind}), the "
                        f"accumulation steps, and the DeepSpeed engine divides it by its config's "
                        f"`gradient_accumulation_steps` ({n}, {where}) again in `{short(site.backward.func, 40)}"
                        f"()`: the gradients end up {n} times too small. Remove the manual division")
                    evidence = [pctx.code_evidence(script, site.backward,
                                                   f"the DeepSpeed engine divides the loss by {n} here")]
                    ev = pctx.fact_evidence(window, f"`gradient_accumulation_steps` = {n} in the DeepSpeed config")
                    if ev is not None:
                        evidence.append(ev)
                    yield pctx.code_finding(self, script, scaling.node, message, evidence=evidence)
                    break

    @staticmethod
    def _accessor(value: ast.AST, receiver: ast.AST) -> bool:
        """``receiver.gradient_accumulation_steps`` or ``receiver.gradient_accumulation_steps()``."""
        if isinstance(value, ast.Call) and not value.args and isinstance(value.func, ast.Attribute):
            value = value.func
        return isinstance(value, ast.Attribute) and value.attr == "gradient_accumulation_steps" \
            and ast.dump(value.value) == ast.dump(receiver)

    @staticmethod
    def _same(ctx: Any, index: Any, divisor: ast.expr, receiver: Optional[ast.AST], n: int) -> bool:
        """``divisor`` is the config's N: the number, a value the code or the launch line sets to N,
        or the engine's/accelerator's own ``gradient_accumulation_steps``."""
        if isinstance(divisor, ast.Constant):
            return divisor.value == n and _int(divisor.value)
        if receiver is not None and LossDividedUnderDeepspeed._accessor(divisor, receiver):
            return True
        if receiver is not None and isinstance(divisor, ast.Name):
            # `gas = model_engine.gradient_accumulation_steps()` once in the function, then `loss / gas`
            # (DeepSpeed issue 7439)
            func = ctx.enclosing_function(divisor)
            values = [node.value for node in ast.walk(func) if isinstance(node, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == divisor.id for t in node.targets)] \
                if func is not None else []
            if len(values) == 1 and LossDividedUnderDeepspeed._accessor(values[0], receiver):
                return True
        for found in (index.resolve(divisor), resolve(ctx, divisor)):
            if found is not None and _int(found.value) and found.value == n:
                return True
        return False
