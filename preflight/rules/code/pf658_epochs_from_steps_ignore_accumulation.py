"""PF658 epochs-from-steps-ignore-accumulation: the optimizer steps per epoch are taken as
``len(train_dataloader)`` in a loop that counts a step only when the accumulated gradients sync."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _len_of_loader(expr: ast.expr) -> Optional[str]:
    """``len(train_dataloader)`` -> ``train_dataloader`` (a name or attribute that reads as a loader)."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
            and len(expr.args) == 1 and not expr.keywords:
        text = ast.unparse(expr.args[0])
        if "loader" in text.lower():
            return text
    return None


def _accumulates(ctx: FileContext) -> Optional[ast.AST]:
    """``Accelerator(gradient_accumulation_steps=X)`` with X not the literal 1, in a file that trains under
    ``accelerator.accumulate(...)``."""
    if "accumulate(" not in ctx.parsed.source.text:
        return None
    for call in ctx.nodes(ast.Call):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if name != "Accelerator":
            continue
        for kw in call.keywords:
            if kw.arg == "gradient_accumulation_steps" and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value in (0, 1)):
                return kw
    return None


def _counts_on_sync(ctx: FileContext) -> Optional[ast.AST]:
    """``if accelerator.sync_gradients: global_step += 1``: a step is one optimizer update."""
    for node in ctx.nodes(ast.If):
        if "sync_gradients" not in ast.unparse(node.test):
            continue
        for sub in node.body:
            if isinstance(sub, ast.AugAssign) and isinstance(sub.op, ast.Add) and isinstance(sub.target, ast.Name) \
                    and "step" in sub.target.id:
                return sub
    return None


def _divides_steps(ctx: FileContext, name: str) -> Optional[ast.BinOp]:
    """``max_train_steps / name`` (or ``//``): epochs derived from the optimizer-step budget."""
    for node in ctx.nodes(ast.BinOp):
        if isinstance(node.op, (ast.Div, ast.FloorDiv)) and isinstance(node.right, ast.Name) \
                and node.right.id == name and "step" in ast.unparse(node.left):
            return node
    return None


@register
class EpochsFromStepsIgnoreAccumulation(Rule):
    code = "PF658"
    needs_text = ("sync_gradients", "gradient_accumulation_steps")
    name = "epochs-from-steps-ignore-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`num_update_steps_per_epoch = len(train_dataloader)` under gradient accumulation: the epochs "
               "derived from `max_train_steps` are too few and training stops early")
    explanation = """
## What it finds

`num_update_steps_per_epoch = len(train_dataloader)` (a name with `update` in it bound to
the loader's length, not divided by the accumulation), then `max_train_steps /
num_update_steps_per_epoch` to get the number of epochs, in a script that builds
`Accelerator(gradient_accumulation_steps=N)` (N not the literal 1), trains under
`accelerator.accumulate(...)`, and counts a step only when the gradients sync
(`if accelerator.sync_gradients: global_step += 1`).

## Why it matters

Under accumulation an epoch of `len(train_dataloader)` batches makes only
`len(train_dataloader) / N` optimizer updates, and the loop counts updates. The
epochs computed from `len(train_dataloader)` are N times too few, so the `for epoch in
range(num_train_epochs)` loop ends after `max_train_steps / N` updates, before the
schedule built for `max_train_steps` has decayed (SimpleTuner issue 160: "step number
over-counted compare to epochs number, leads to early termination"). Accelerate's and
diffusers' example scripts compute `math.ceil(len(train_dataloader) /
args.gradient_accumulation_steps)`.

## How to fix it

`num_update_steps_per_epoch = math.ceil(len(train_dataloader) / gradient_accumulation_steps)`.

## When preflight stays silent

* The length is divided by anything, or the name has no `update` in it.
* The step counter grows on every batch (then `len(train_dataloader)` counts the same
  thing as `max_train_steps`), or no `sync_gradients` test counts it.
* The accumulation is the literal 1, or is not given to `Accelerator(...)`.
"""
    bad_examples = examples("preflight.rules.code._pf658_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf658_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        accumulation = _accumulates(ctx)
        if accumulation is None:
            return
        counter = _counts_on_sync(ctx)
        if counter is None:
            return
        for node in ctx.nodes(ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) \
                    or "update" not in node.targets[0].id:
                continue
            loader = _len_of_loader(node.value)
            if loader is None:
                continue
            name = node.targets[0].id
            division = _divides_steps(ctx, name)
            if division is None:
                continue
            yield ctx.finding(
                self, node,
                f"`{name} = len({loader})` but the loader's batches are accumulated ({ast.unparse(accumulation)}) "
                "and the loop counts a step only when the gradients sync: an epoch makes len/N optimizer "
                f"updates, so `{ast.unparse(division)}` gives N times too few epochs and training stops after "
                "max_train_steps / N updates, before the schedule has decayed. Divide by the accumulation: "
                f"`math.ceil(len({loader}) / gradient_accumulation_steps)`",
                evidence=[ctx.evidence(division, "the epochs are derived from it here"),
                          ctx.evidence(counter, "a step is counted per optimizer update here")])
            return
