"""PF109 double-scaled-accumulation: a manual ``/ N`` on top of a framework that divides."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.accumulation import (
    Accumulation,
    Scaling,
    accumulation,
    is_number,
    same_value,
)
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo
from preflight.diagnostics import Applicability, Category, Finding, Fix, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf108_support import short

_LIGHTNING_GA = "self.trainer.accumulate_grad_batches"


@register
class DoubleScaledAccumulation(Rule):
    code = "PF109"
    name = "double-scaled-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "lightning")
    fixable = True
    summary = "The loss is divided by the accumulation steps that the framework already divides by"
    explanation = """
## What it finds

A loss divided by the gradient-accumulation window by hand and then handed to a
framework that divides by the same window again:

* Accelerate: `accelerator.backward(loss)` divides by the
  `gradient_accumulation_steps` the `Accelerator(...)` was built with, so
  `loss = loss / gradient_accumulation_steps` before it divides twice.
* Lightning (automatic optimization): the loss returned by `training_step` is
  divided by `Trainer(accumulate_grad_batches=N)`, so returning
  `loss / self.trainer.accumulate_grad_batches` divides twice.

## Why it matters

Gradients end up N times too small: with SGD an N-times smaller learning rate;
with Adam mostly absorbed, but clipping thresholds, coupled weight decay and
epsilon now act on N-times smaller gradients. The script runs and trains,
just not the way its configuration says.

## How to fix it

Remove the manual division and let the framework divide (the autofix removes
`/ N`, `.div(N)` or `* (1 / N)`; when the divided value is also logged, the
logged loss changes by N, so that fix is offered as unsafe). The fix never
divides anything.

## When preflight stays silent

* The divisor is not provably the framework's window: another number, another
  expression (tokens in the batch, world size), a plugin or `**kwargs` on the
  `Accelerator`, or an accelerator preflight cannot trace to its constructor.
* `gradient_accumulation_steps` is not set (or is 1), Lightning manual
  optimization, a DeepSpeed engine (configured in its JSON), the HF `Trainer`.
* A class that only happens to be called `Trainer`: only Lightning's
  `Trainer` (resolved through the imports) counts.
"""
    bad_examples = examples("preflight.rules.code._pf108_examples", "PF109_BAD")
    good_examples = examples("preflight.rules.code._pf108_examples", "PF109_GOOD")
    fixed_examples = examples("preflight.rules.code._pf108_fixes", "PF109_FIXED")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        facts = accumulation(ctx)
        # one finding per manual division: a loss divided once and handed to two ``accelerator.backward``
        # calls (one per branch) is one cause, reported at the division with each backward as evidence
        found: dict[int, tuple[Scaling, list[ast.AST], Optional[ast.Call], Optional[ast.expr], FunctionInfo]] = {}
        for site in facts.sites:
            owner = site.owner
            if owner.kind != "accelerate" or not owner.ga_known or owner.ga is None or is_number(
                    owner.ga, 1):
                continue
            receiver = site.backward.func.value if isinstance(site.backward.func, ast.Attribute) else None
            own_attr = f"{ast.unparse(receiver)}.gradient_accumulation_steps" if receiver else ""
            ga_fn = facts.scopes.function_of(owner.constructor) if owner.constructor else site.function
            ga = facts.resolve(owner.ga, ga_fn)
            for scaling in site.trace.scalings:
                if scaling.divisor is None:
                    continue
                divisor = facts.resolve(scaling.divisor, site.function)
                if ast.unparse(scaling.divisor) == own_attr or same_value(divisor, ga) or (
                        same_value(scaling.divisor, owner.ga)):
                    if id(scaling.node) in found:
                        found[id(scaling.node)][1].append(site.backward)
                    else:
                        found[id(scaling.node)] = (scaling, [site.backward], owner.constructor, owner.ga,
                                                   site.function)
                    break
        for scaling, backwards, ctor, ga_expr, fn in found.values():
            yield self._report(ctx, scaling, backwards, ctor, ga_expr, "accelerate", fn)
        returned: set[int] = set()
        for lsite in facts.lightning:
            for scaling in lsite.trace.scalings:
                if self._lightning_window(facts, scaling, lsite.function):
                    if id(scaling.node) not in returned:
                        returned.add(id(scaling.node))
                        yield self._report(ctx, scaling, [lsite.ret], None, scaling.divisor, "lightning",
                                           lsite.function)
                    break

    @staticmethod
    def _lightning_window(facts: Accumulation, scaling: Scaling, fn: FunctionInfo) -> bool:
        if scaling.divisor is None:
            return False
        if ast.unparse(scaling.divisor) == _LIGHTNING_GA:
            return True
        divisor = facts.resolve(scaling.divisor, fn)
        return any(not is_number(ga, 1) and (same_value(divisor, ga) or same_value(
            scaling.divisor, ga)) for ga in facts.trainer_accumulation)

    def _report(self, ctx: FileContext, scaling: Scaling, backwards: list[ast.AST],
                ctor: Optional[ast.Call], ga: Optional[ast.expr], framework: str,
                fn: FunctionInfo) -> Finding:
        n = short(scaling.divisor, 40)
        if framework == "accelerate":
            owner = "`accelerator.backward` already divides the loss by " + (
                f"`gradient_accumulation_steps={short(ga, 40)}`")
        else:
            owner = ("Lightning already divides the loss returned by `training_step` by "
                     "`accumulate_grad_batches` (automatic optimization)")
        message = (
            f"The loss is divided by the accumulation window `{n}` ({scaling.kind}) and {owner}: "
            f"the gradients are divided by the window twice and end up that many times too small "
            f"(with SGD a correspondingly smaller learning rate; with Adam, clipping, weight decay "
            f"and epsilon act on shrunken gradients). Remove the manual division")
        evidence = [ctx.evidence(scaling.node, f"manual division by `{n}` ({scaling.kind})")]
        if ctor is not None:
            evidence.append(ctx.evidence(ctor, f"`{short(ctor, 70)}` sets the window the "
                                               "framework divides by"))
        for backward in backwards:
            if framework == "accelerate":
                evidence.append(ctx.evidence(backward, "`accelerator.backward` divides again here"))
            else:
                evidence.append(ctx.evidence(backward, "Lightning divides this returned loss again"))
        return ctx.finding(self, scaling.node, message, evidence=evidence,
                           fix=self._fix(ctx, scaling, backwards))

    def _fix(self, ctx: FileContext, scaling: Scaling, backwards: list[ast.AST]) -> Optional[Fix]:
        node = scaling.node
        if not isinstance(node, (ast.BinOp, ast.Call)) or scaling.removable is None:
            return None
        keep = "left"
        if isinstance(node, ast.BinOp) and scaling.removable is node.right:
            keep = "right"
        inline = any(a is node for backward in backwards for a in ast.walk(backward))
        fix = ctx.fix(node, f"Remove the manual division by `{short(scaling.divisor, 40)}`",
                      "undivide", keep=keep)
        if inline:
            return fix
        return Fix(description=fix.description + " (the divided value may also be logged)",
                   operation=fix.operation, target=fix.target,
                   applicability=Applicability.UNSAFE, params=fix.params)
