"""PF271 logged-loss-running-sum: a running sum of batch losses (``total_loss += loss``) logged as the
training loss as it is, never divided by the number of batches it adds up."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._logged_loss import (
    divided_names,
    has_division,
    logged_name,
    logged_pairs,
    loop_sum,
    starts_at_zero,
    training_loop,
    zero_assign,
)

# a key that says it is a sum is logged as meant
_SUM_WORDS = ("sum", "total", "cum")


def _reset_each_batch(ctx: FileContext, total: ast.AugAssign, name: str) -> bool:
    """The total starts again at zero inside the innermost batch loop around its ``+=``: it sums the
    terms of one step's loss (``loss = 0; loss += nll + kl; loss += gan``), not the batches."""
    for anc in ctx.ancestors(total):
        if isinstance(anc, (ast.For, ast.While)) and training_loop(anc):
            return any(zero_assign(node, name) and getattr(node, "lineno", 0) < total.lineno for node in ast.walk(anc))
    return False


@register
class LoggedLossRunningSum(Rule):
    code = "PF271"
    name = "logged-loss-running-sum"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "lightning")
    needs_text = ("loss",)
    summary = ("A running sum of batch losses (`total_loss += loss`) is logged as the training loss without "
               "being divided by the number of batches: the curve grows with the epoch length")
    explanation = """
## What it finds

In one function (or at module level): a total started at zero (`total_loss = 0`), grown
inside a loop by a loss (`total_loss += loss.detach().float()`), and then logged as is
under a key that names a loss (`accelerator.log({"train_loss": total_loss})`,
`writer.add_scalar("loss", total_loss.item(), step)`, `wandb.log(...)`, `self.log(...)`),
with no division on the way: not in the logged value, not in the total's own updates,
not in the added loss.

## Why it matters

The logged number is the sum of the epoch's batch losses: it scales with the number of
batches, so it cannot be compared with an evaluation loss, with a run of another
length, batch size or process count, or with the Trainer's mean. The accelerate NLP
examples logged `"train_loss": total_loss` until accelerate PR 399 ("Train loss being
logged wasn't normalized ... This PR normalizes the train_loss per epoch").

## How to fix it

Log the mean: `total_loss.item() / len(train_dataloader)` (or divide by the count of
batches you added), and reduce it across processes first when several run.

## When preflight stays silent

* The logged value divides (`total_loss / len(loader)`, `.mean()`), or the total is
  divided in place before the log (`total_loss /= n`, `total = total / steps`).
* The added loss is already divided (`total += loss.item() / accum_steps`, or the loss
  was divided before: `loss = loss / accum_steps`): the window's sum is its mean.
* The key says it is a sum (`loss_sum`, `total_loss`, `cum_loss`).
* The total is not started at zero in the same function, or is not grown inside a loop
  over batches (one that iterates a loader, or calls `backward` or a `step`): a loop over
  the terms of one loss (`for head in heads: loss += head(x)`) sums a loss, not batches.
* The total starts again at zero inside the batch loop, before the `+=`: it adds up the
  terms of one step's loss (`vae_loss = 0; vae_loss += nll + kl`), not the batches.
"""
    bad_examples = examples("preflight.rules.code._pf271_examples", "PF271_BAD")
    good_examples = examples("preflight.rules.code._pf271_examples", "PF271_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            for key, value in logged_pairs(call):
                lowered = key.lower()
                if "loss" not in lowered or any(w in lowered for w in _SUM_WORDS):
                    continue
                name = logged_name(value)
                if name is None:
                    continue
                scope = ctx.enclosing_function(call) or ctx.tree
                total = loop_sum(scope, name)
                if total is None or not starts_at_zero(scope, name) or _reset_each_batch(ctx, total, name):
                    continue
                divided = divided_names(scope)
                if name in divided or has_division(total.value) or any(
                        isinstance(n, ast.Name) and n.id in divided for n in ast.walk(total.value)):
                    continue
                message = (f"`{ast.unparse(value)}` is logged as \"{key}\", but `{name}` is the running sum of "
                           f"the batch losses (`{ast.unparse(total)}`, line {total.lineno}) and is never divided "
                           f"by the number of batches: the logged loss grows with the epoch length and compares "
                           f"with no mean loss. Log `{name} / <batches summed>` (e.g. `len(train_dataloader)`)")
                yield ctx.finding(self, value, message,
                                  evidence=[ctx.evidence(total, "the losses are summed here")])
