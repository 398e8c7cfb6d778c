"""PF477 monitored-eval-metric-step-only: a metric that a checkpoint or early-stopping callback
monitors, logged in a validation step with ``on_epoch=False``: it never reaches the callback metrics."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf476_monitored_metric_logged_rank_zero_only import (
    monitored_metrics,
    self_log_calls,
)

# hooks that run once per validation batch (the validation loop runs while a checkpoint monitors)
_STEP_HOOKS = frozenset({"validation_step", "validation_step_end", "on_validation_batch_end"})


@register
class MonitoredEvalMetricStepOnly(Rule):
    code = "PF477"
    needs_text = ("on_epoch",)
    name = "monitored-eval-metric-step-only"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A metric monitored by `ModelCheckpoint`/`EarlyStopping` is logged in `validation_step` with "
               "`on_epoch=False`: it never reaches the callback metrics")
    explanation = """
## What it finds

In one file: a Lightning `ModelCheckpoint(monitor="val_loss")` or
`EarlyStopping(monitor="val_loss")`, and `self.log("val_loss", loss, on_epoch=False)`
(or `self.log_dict({...}, on_epoch=False)`) in `validation_step` (or
`validation_step_end`/`on_validation_batch_end`), with no other `self.log` of that name
that keeps the epoch-level value.

## Why it matters

Lightning's result collection puts an evaluation metric into `trainer.callback_metrics`
only when it is aggregated per epoch (`if self.training or result_metric.meta.on_epoch
and not on_step`, `logger_connector/result.py`): step-level values of the validation
loop go to the loggers, never to the callbacks. So the monitored key is missing when
the callback looks for it: `ModelCheckpoint` raises "ModelCheckpoint(monitor='val_loss')
could not find the monitored key in the returned metrics" and `EarlyStopping` (strict)
fails the same way (Lightning issue 10718).

## How to fix it

Drop `on_step=True, on_epoch=False` in the validation step (the default there is the
epoch mean), or log the monitored value a second time with `on_epoch=True`.

## When preflight stays silent

* The metric is not monitored by a callback built in the same file (by literal name).
* `on_epoch` is not literally `False`, or the log call unpacks `**kwargs`.
* The same name is also logged elsewhere in the file without `on_epoch=False`.
* The metric is logged in `training_step` (training metrics reach the callbacks at step
  level).
"""
    bad_examples = examples("preflight.rules.code._pf477_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf477_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        monitored, _ = monitored_metrics(ctx)
        if not monitored:
            return
        step_only: dict[str, list[ast.Call]] = {}
        elsewhere: set[str] = set()
        for call, name in self_log_calls(ctx):
            if name not in monitored:
                continue
            flag = kwarg(call, "on_epoch")
            fn = ctx.enclosing_function(call)
            in_step = isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in _STEP_HOOKS
            unpacks = any(k.arg is None for k in call.keywords)
            if in_step and not unpacks and flag is not None and literal(ctx, flag) is False:
                step_only.setdefault(name, []).append(call)
            else:
                elsewhere.add(name)
        for name, found in step_only.items():
            if name in elsewhere:
                continue
            for call in found:
                yield ctx.finding(
                    self, call,
                    f"`{name}` is monitored by `{ast.unparse(monitored[name].func)}` but logged in the validation "
                    "step with `on_epoch=False`: Lightning keeps step-level values of the validation loop for the "
                    "loggers only, never in `trainer.callback_metrics`, so the callback cannot find the monitored "
                    "key (\"could not find the monitored key in the returned metrics\"). Log it with the default "
                    "`on_epoch=True` in the validation step",
                    evidence=[ctx.evidence(monitored[name], f"monitors `{name}`")])
