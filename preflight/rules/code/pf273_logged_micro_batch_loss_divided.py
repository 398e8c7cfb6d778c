"""PF273 logged-micro-batch-loss-divided: under ``accelerator.accumulate`` the logged training loss is the
last micro-batch's loss divided by the accumulation steps, which the loss never was."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls
from preflight.rules.base import Rule, examples
from preflight.rules.code._logged_loss import divided_names, logged_name, logged_pairs

_ACCUM_WORDS = ("accum", "grad_acc")


def _divided_by_accumulation(value: ast.expr) -> Optional[tuple[str, ast.expr]]:
    """``loss.item() / args.gradient_accumulation_steps``: (the divided name, the divisor)."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div)):
        return None
    name = logged_name(value.left)
    divisor = ast.unparse(value.right).lower()
    if name is None or not any(w in divisor for w in _ACCUM_WORDS):
        return None
    return name, value.right


@register
class LoggedMicroBatchLossDivided(Rule):
    code = "PF273"
    name = "logged-micro-batch-loss-divided"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    needs_text = ("accumulate",)
    summary = ("Under `accelerator.accumulate` the logged loss is one micro-batch's loss divided by the "
               "accumulation steps: it is that many times too small and ignores the window's other batches")
    explanation = """
## What it finds

A file that steps with `accelerator.accumulate(...)` and logs (`accelerator.log`,
`writer.add_scalar`, `wandb.log`, `self.log`) a training loss computed as
`loss.item() / gradient_accumulation_steps`, where `loss` is the value given to
`accelerator.backward(loss)` and the function never divides it itself.

## Why it matters

With `accelerator.accumulate`, accelerate divides the loss inside `backward` (the user
keeps the undivided micro-batch loss), and the loop variable holds only the last
micro-batch of the window. Dividing it once more for the log gives a number
gradient_accumulation_steps times smaller than the loss, drawn from one batch of the
window; accelerate issue 639 ("How to log `train_loss` with `accelerator.accumulate`?"):
sum the window's losses, each divided once, and log that sum.

## How to fix it

`window_loss += loss.item() / gradient_accumulation_steps` for every micro-batch, log
`window_loss` when `accelerator.sync_gradients`, then reset it (or log `loss.item()`
undivided, the last batch's own loss).

## When preflight stays silent

* The logged value is not a name divided by an accumulation count (`window_loss`,
  `loss.item()`).
* The function divides the loss itself (`loss = loss / accum`): then the division
  before the log would be a second one of a different kind, left to review.
* The divided name is not what `accelerator.backward` receives, or the file never
  calls `accelerator.accumulate`.
"""
    bad_examples = examples("preflight.rules.code._pf273_examples", "PF273_BAD")
    good_examples = examples("preflight.rules.code._pf273_examples", "PF273_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not accelerator_calls(ctx, "accumulate"):
            return
        backwards = {a.id for call in accelerator_calls(ctx, "backward") for a in call.args[:1]
                     if isinstance(a, ast.Name)}
        if not backwards:
            return
        for call in ctx.nodes(ast.Call):
            for key, value in logged_pairs(call):
                if "loss" not in key.lower():
                    continue
                found = _divided_by_accumulation(value)
                if found is None or found[0] not in backwards:
                    continue
                name, divisor = found
                scope = ctx.enclosing_function(call) or ctx.tree
                if name in divided_names(scope):
                    continue
                message = (f"\"{key}\" logs `{ast.unparse(value)}`: under `accelerator.accumulate` `{name}` is the "
                           f"last micro-batch's undivided loss (accelerate divides it inside `backward`), so this "
                           f"is one batch of the window divided by `{ast.unparse(divisor)}`, that many times too "
                           f"small. Sum `{name}.item() / {ast.unparse(divisor)}` over the window and log the sum")
                yield ctx.finding(self, value, message)
