"""PF462 max-steps-overrides-epochs: ``TrainingArguments(max_steps=N, num_train_epochs=E)`` with N > 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples

# transformers' TrainingArguments and its subclasses in transformers and TRL (all share the fields)
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig", "KTOConfig",
         "CPOConfig", "GRPOConfig", "RewardConfig", "PPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig",
         "BCOConfig", "PRMConfig", "NashMDConfig", "XPOConfig")


def _positive_int(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[int]:
    """A literal positive int: written in the call, or the one constant assigned to a name of the file."""
    if isinstance(expr, ast.Name):
        values = [n.value for n in ctx.nodes(ast.Assign)
                  if any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        expr = values[0] if len(values) == 1 else None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool) \
            and expr.value > 0:
        return expr.value
    return None


@register
class MaxStepsOverridesEpochs(Rule):
    code = "PF462"
    needs_text = ("max_steps",)
    name = "max-steps-overrides-epochs"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "A positive `max_steps` makes the `num_train_epochs` of the same TrainingArguments do nothing"
    explanation = """
## What it finds

`TrainingArguments(...)` (or `Seq2SeqTrainingArguments`, or a TRL config such as
`SFTConfig`/`DPOConfig`/`GRPOConfig`) given both `num_train_epochs=...` and
`max_steps=N` with `N` a positive literal (in the call, or the one constant bound
to the name).

## Why it matters

For the HF Trainer a positive `max_steps` *overrides* `num_train_epochs`: training
stops after `max_steps` optimizer steps whatever the epoch count says (it only
decides how the dataloader is repeated). Copying a notebook's `max_steps = 60` next
to `num_train_epochs = 20` gives a run of a few minutes that looks finished
(unsloth issue 594: "I set num_train_epochs=20, but it override it to 1";
awesome-align issue 18; transformers issue 6439).

## How to fix it

Keep one of the two: remove `max_steps` (its default, -1, lets `num_train_epochs`
decide), or remove `num_train_epochs` when a step budget is what you want.

## When preflight stays silent

* `max_steps` is -1/0, or not a literal (`args.max_steps`: the launch decides).
* `num_train_epochs` is not given, or is a literal of at most 1 (`num_train_epochs=1,
  max_steps=5`: a step cap on a smoke run, as in PEFT's tests; nothing the user asked
  for is lost).
"""
    bad_examples = examples("preflight.rules.code._pf462_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf462_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            func = call.func
            last = qual.rsplit(".", 1)[-1] if qual else (
                func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
            if last not in _ARGS:
                continue
            steps_expr = kwarg(call, "max_steps")
            epochs = kwarg(call, "num_train_epochs")
            steps = _positive_int(ctx, steps_expr)
            if steps is None or epochs is None or steps_expr is None:
                continue
            if isinstance(epochs, ast.Constant) and isinstance(epochs.value, (int, float)) and epochs.value <= 1:
                continue  # one epoch capped by a step budget: the smoke-test idiom, nothing lost
            yield ctx.finding(
                self, steps_expr,
                f"`max_steps={steps}` is positive, so the Trainer stops after {steps} optimizer steps and "
                f"`num_train_epochs={ast.unparse(epochs)}` of the same `{last}` does nothing (a positive "
                "max_steps overrides the epoch count). Remove `max_steps` (default -1) to train for the "
                "epochs, or remove `num_train_epochs`",
                evidence=[ctx.evidence(epochs, "the epoch count it overrides")])
