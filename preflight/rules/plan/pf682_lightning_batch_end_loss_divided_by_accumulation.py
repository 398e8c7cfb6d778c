"""PF682 lightning-batch-end-loss-divided-by-accumulation: ``outputs["loss"]`` read in ``on_train_batch_end``
of a job that accumulates gradients: Lightning hands that hook the loss already divided by
``accumulate_grad_batches``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_lightning
from preflight.sources import ParsedPython


def _window(pctx: PlanContext) -> Optional[int]:
    """The largest accumulation window the job states: ``Trainer(accumulate_grad_batches=N)`` or a
    ``GradientAccumulationScheduler(scheduling={epoch: N})`` value, else the plan's ``batch.grad_accum``."""
    best: Optional[int] = None
    for script in pctx.scripts:
        idx = pctx.index(script)
        for call in ast.walk(script.tree):
            if not isinstance(call, ast.Call):
                continue
            values: list[object] = []
            if call_last(call) == "Trainer":
                given = kwarg(call, "accumulate_grad_batches")
                found = idx.resolve(given) if given is not None else None
                values.append(found.value if found is not None else None)
            elif call_last(call) == "GradientAccumulationScheduler":
                given = kwarg(call, "scheduling") or (call.args[0] if call.args else None)
                if isinstance(given, ast.Dict):
                    values.extend(v.value for v in given.values if isinstance(v, ast.Constant))
            for value in values:
                if isinstance(value, int) and not isinstance(value, bool) and (best is None or value > best):
                    best = value
    if best is None:
        fact = pctx.plan.resolve("batch.grad_accum")
        value = fact.value if fact is not None else None
        best = value if isinstance(value, int) and not isinstance(value, bool) else None
    return best


def _outputs_param(fn: ast.FunctionDef) -> Optional[str]:
    """The ``outputs`` parameter of ``on_train_batch_end`` (module hook or Callback hook)."""
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if "outputs" in names:
        return "outputs"
    if names[:1] == ["self"] and len(names) in (4, 5):  # (self, outputs, batch, batch_idx[, dataloader_idx])
        return names[1]
    if names[:1] == ["self"] and len(names) in (6, 7):  # Callback: (self, trainer, pl_module, outputs, ...)
        return names[3]
    return None


def _loss_reads(script: ParsedPython) -> Iterable[ast.Subscript]:
    for fn in ast.walk(script.tree):
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "on_train_batch_end"):
            continue
        param = _outputs_param(fn)
        if param is None or "accumulate_grad_batches" in ast.unparse(fn):
            continue  # scaled back by the window: right
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param \
                    and isinstance(node.slice, ast.Constant) and node.slice.value == "loss":
                yield node


@register
class LightningBatchEndLossDividedByAccumulation(PlanRule):
    code = "PF682"
    name = "lightning-batch-end-loss-divided-by-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`outputs[\"loss\"]` read in `on_train_batch_end` while gradients accumulate: Lightning passes the "
               "loss already divided by `accumulate_grad_batches`")
    explanation = """
## What it finds

A LightningModule or Callback whose `on_train_batch_end` reads `outputs["loss"]` (to log it, print
it or keep it) in a job that accumulates gradients: `Trainer(accumulate_grad_batches=N)` with N > 1,
or a `GradientAccumulationScheduler` whose scheduling reaches N > 1.

## Why it matters

Under automatic optimization Lightning divides the training-step loss by the accumulation window
before the backward pass (`ClosureResult.from_training_step_output(..., normalize)`,
`closure_loss / normalize`) and hands that divided copy to `on_train_batch_end` as
`outputs["loss"]` (`ClosureResult.asdict`; read in loops/optimization at 1.5.0, 1.6.0, 1.9.0,
2.0.8 and master). A loss logged there is N times too small: with a `GradientAccumulationScheduler`
that raises the window from 1 to 100 the curve drops 100x and looks converged (Lightning
issue 18464).

## How to fix it

Log the loss in `training_step`, or multiply `outputs["loss"]` by `trainer.accumulate_grad_batches`.

## When preflight stays silent

* No accumulation (a window of 1 or none stated).
* The hook mentions `accumulate_grad_batches` (the loss scaled back).
* Manual optimization (`self.automatic_optimization = False`): nothing is divided.
* Lightning pinned below 1.5 (not read).
"""
    bad_examples = examples("preflight.rules.plan._pf682_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf682_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        reads = [(s, n) for s in pctx.scripts for n in _loss_reads(s)]
        if not reads:
            return
        window = _window(pctx)
        if window is None or window <= 1:
            return
        for script, node in reads:
            text = script.text if script.text is not None else script.source.text
            if "automatic_optimization = False" in (text or ""):
                continue
            version = pinned_lightning(pctx, script)
            if version is not None and not version.at_least(1, 5):
                continue
            yield pctx.file_context(script).finding(
                self, node,
                f"`{ast.unparse(node)}` in `on_train_batch_end` is the training loss already divided by "
                f"`accumulate_grad_batches` (up to {window} here): Lightning normalises the step's loss before the "
                "backward pass and passes that copy to the hook, so what is logged or kept is too small by the "
                "window. Log the loss in `training_step`, or multiply by `trainer.accumulate_grad_batches`")
