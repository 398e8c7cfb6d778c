"""PF283 wandb-step-goes-back: an epoch metric logged to wandb at ``step=epoch`` after per-batch
metrics were logged at a growing global step: wandb drops every epoch point."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, accelerators
from preflight.rules.base import Rule, examples


def _says_wandb(node: Optional[ast.AST]) -> bool:
    """``log_with="wandb"``, ``["wandb", ...]``, ``LoggerType.WANDB``: wandb is certainly a tracker."""
    if node is None:
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.lower() == "wandb":
            return True
        if isinstance(n, ast.Attribute) and n.attr == "WANDB":
            return True
    return False


def _wandb_logs(ctx: FileContext) -> list[ast.Call]:
    """``log(values, step=...)`` calls that reach wandb: ``wandb.log`` (or a run from ``wandb.init``),
    and ``accelerator.log`` when every Accelerator of the file is built with a wandb tracker."""
    out: list[ast.Call] = []
    imports = scope_index(ctx).imports
    runs = {ast.unparse(t) for a in ctx.nodes(ast.Assign) if isinstance(a.value, ast.Call)
            and imports.qualify(a.value.func) == "wandb.init" for t in a.targets}
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "log" and (
                imports.qualify(call.func) == "wandb.log" or ast.unparse(call.func.value) in runs):
            out.append(call)
    ctors = accelerators(ctx)
    if ctors and all(_says_wandb(next((k.value for k in c.keywords if k.arg == "log_with"), None))
                     for c in ctors):
        out.extend(accelerator_calls(ctx, "log"))
    return [c for c in out if any(k.arg == "step" for k in c.keywords)]


def _step(call: ast.Call) -> ast.expr:
    return next(k.value for k in call.keywords if k.arg == "step")


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}



def _counted_in(loop: ast.AST, name: str) -> bool:
    """``name += ...`` somewhere inside ``loop``: a counter that keeps growing across epochs."""
    return any(isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.target, ast.Name)
               and n.target.id == name for n in ast.walk(loop))


@register
class WandbStepGoesBack(Rule):
    code = "PF283"
    needs_text = ("wandb", "step=")
    name = "wandb-step-goes-back"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = ("An epoch metric is logged to wandb at `step=epoch` after per-batch metrics at a growing "
               "global step: wandb drops every epoch point")
    explanation = """
## What it finds

Two logging calls that reach wandb (`wandb.log`, a run from `wandb.init`, or
`accelerator.log` of an `Accelerator(log_with="wandb")`) in one epoch loop: one inside
the batch loop with `step=` a counter the loop keeps adding to (`global_step += 1`), the
other in the epoch loop outside the batch loop with `step=` computed from the epoch
variable (`step=epoch + 1`).

## Why it matters

wandb has one step axis per run and accepts only steps that never go back: "Tried to
log to step 15 that is less than the current step 150. Steps must be monotonically
increasing, so this data will be ignored". After the first epoch the global step is
larger than any epoch number, so every epoch-level point is dropped with a warning
in the console and the epoch curve stays empty (kohya-ss/musubi-tuner issue 294:
"loss/epoch cannot be logged for wandb"). TensorBoard keeps a step axis per tag and
shows both, which is why the shape survives in scripts written for it.

## How to fix it

Log the epoch metric at the global step (`step=global_step`, with the epoch as a
value), or give it its own axis: `wandb.define_metric("loss/epoch",
step_metric="epoch")` and log `{"loss/epoch": ..., "epoch": epoch + 1}` without `step=`.

## When preflight stays silent

* The file calls `define_metric` (a separate step axis).
* The tracker is not certainly wandb: `log_with` from a command-line argument or
  another tracker (TensorBoard keeps one step axis per tag).
* The batch-loop `step=` is the batch loop's own index (it restarts each epoch), or the
  epoch `step=` uses the global counter.
"""
    bad_examples = examples("preflight.rules.code._pf283_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf283_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("define_metric"):
            return
        logs = _wandb_logs(ctx)
        if len(logs) < 2:
            return
        for outer in logs:
            epoch_loop = ctx.enclosing_loop(outer)
            if not isinstance(epoch_loop, (ast.For, ast.AsyncFor)):
                continue
            epoch_names = _names(epoch_loop.target)
            said = _names(_step(outer))
            if not epoch_names & said:
                continue
            for inner in logs:
                if inner is outer:
                    continue
                batch_loop = ctx.enclosing_loop(inner)
                if batch_loop is None or batch_loop is epoch_loop or not any(
                        p is epoch_loop for p in ctx.ancestors(batch_loop)):
                    continue
                step = _step(inner)
                if not isinstance(step, ast.Name) or step.id in said or step.id in epoch_names \
                        or not _counted_in(batch_loop, step.id):
                    continue
                yield ctx.finding(
                    self, outer,
                    f"`{ast.unparse(outer.func)}(..., step={ast.unparse(_step(outer))})` logs at an epoch number, "
                    f"but the batch loop logs to the same wandb run at `step={step.id}`, which grows every batch: "
                    "wandb only accepts steps that never go back (\"Steps must be monotonically increasing, so "
                    "this data will be ignored\"), so every epoch point after the first epoch is dropped. Log it "
                    f"at `step={step.id}` with the epoch as a value, or give it its own axis with "
                    "`wandb.define_metric(..., step_metric=\"epoch\")`",
                    evidence=[ctx.evidence(inner, f"per-batch metrics logged at step={step.id}")])
                break
