"""PF403 accumulation-without-accumulate: ``gradient_accumulation_steps > 1`` without ``accelerator.accumulate``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.accumulation import accumulation
from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerator_names,
    accelerators,
    has_unpacking,
    is_accelerator_receiver,
    kwarg,
    resolve,
    unparse,
)
from preflight.rules.base import Rule, examples


def unhandled_backwards(ctx: FileContext) -> list[ast.Call]:
    """The ``accelerator.backward`` calls of a file that nothing accumulates: no
    ``accelerator.accumulate``/``no_sync``, no ``sync_gradients`` or
    ``gradient_accumulation_steps`` read, and some backward outside a ``% N`` step window.
    Empty when the file handles accumulation (or does not train with Accelerate)."""
    backwards = accelerator_calls(ctx, "backward")
    if not backwards or accelerator_calls(ctx, "accumulate") or accelerator_calls(ctx, "no_sync"):
        return []
    windowed = {id(site.backward) for site in accumulation(ctx).sites if site.guard is not None or site.window is not None}
    if all(id(call) in windowed for call in backwards):
        return []  # the loop steps on its own window: the optimizer does not step every batch
    names = accelerator_names(ctx)
    for node in ctx.nodes(ast.Attribute):
        if node.attr in ("sync_gradients", "gradient_accumulation_steps") and isinstance(
                node.ctx, ast.Load) and is_accelerator_receiver(node.value, names):
            return []  # the loop handles the window itself
    return backwards


def accumulation_message(value: int, how: str) -> str:
    return (f"`gradient_accumulation_steps={value}`{how} but no step runs inside "
            "`with accelerator.accumulate(model):`: `accelerator.backward` divides every loss by "
            f"{value} while the optimizer still steps after every micro-batch, so training runs "
            f"with a {value}x smaller learning rate and no accumulation. Wrap the training step in "
            "`with accelerator.accumulate(model):`")


@register
class AccumulationWithoutAccumulate(Rule):
    code = "PF403"
    needs_text = ('backward',)
    name = "accumulation-without-accumulate"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "`Accelerator(gradient_accumulation_steps>1)` is used without `accelerator.accumulate`"
    explanation = """
## What it finds

An `Accelerator(gradient_accumulation_steps=N)` with N > 1 (a literal, a constant
or an argparse default) in a script that trains with `accelerator.backward(...)`
but never enters `with accelerator.accumulate(model):` and never looks at
`accelerator.sync_gradients`.

## Why it matters

`accelerator.backward` divides the loss by N, but it is
`accelerator.accumulate` that tells the prepared optimizer to skip the steps in
between: the Accelerate docstring says a number > 1 "should be combined with
`Accelerator.accumulate`". Without it the optimizer steps after every
micro-batch on a loss divided by N: training runs with an N-times smaller
learning rate and no accumulation at all, silently.

## How to fix it

Wrap each training step in `with accelerator.accumulate(model):` (the
`optimizer.step()` / `zero_grad()` inside it stay as they are), or drop
`gradient_accumulation_steps` and accumulate by hand.

## When preflight stays silent

* `accelerator.accumulate(...)` anywhere in the file, or a loop that steps on
  `accelerator.sync_gradients` / uses `accelerator.no_sync(...)` (manual handling).
* Every `accelerator.backward` belongs to a loop whose `optimizer.step()` runs under
  its own window (`if (i + 1) % N == 0:`): the prepared optimizer steps whenever it
  is called outside `accumulate` (`sync_gradients` stays True), so the loop
  accumulates N micro-batches of a loss divided by `gradient_accumulation_steps`.
* The value is 1, or not known statically (a plugin, `**kwargs`, a value from the
  launch command only: `audit` with the launch line reports that one as PF520).
* No `accelerator.backward` in the file (nothing trains here).
"""
    bad_examples = examples("preflight.rules.code._pf40x_examples", "PF403_BAD")
    good_examples = examples("preflight.rules.code._pf40x_examples", "PF403_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        backwards = unhandled_backwards(ctx)
        if not backwards:
            return
        for ctor in accelerators(ctx):
            expr = kwarg(ctor, "gradient_accumulation_steps")
            if expr is None or has_unpacking(ctor):
                continue
            found = resolve(ctx, expr)
            if found is None or not isinstance(found.value, int) or isinstance(found.value, bool):
                continue
            if found.value <= 1:
                continue
            how = "" if isinstance(expr, ast.Constant) else f" (`{unparse(expr, 40)}` = {found.value})"
            evidence = [ctx.evidence(expr, f"accumulation window {found.value}"),
                        ctx.evidence(backwards[0], f"`accelerator.backward` divides the loss by {found.value}")]
            yield ctx.finding(self, expr, accumulation_message(found.value, how), evidence=evidence)
