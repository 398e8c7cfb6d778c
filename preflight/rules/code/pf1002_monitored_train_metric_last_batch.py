"""PF1002 monitored-train-metric-last-batch: a checkpoint or early-stopping callback monitors a metric the module
logs only in ``training_step`` with Lightning's step-level default: the callback compares the loss of each epoch's
last batch, not the epoch's."""

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

# hooks that run once per training batch, where self.log defaults to on_step=True, on_epoch=False
_TRAIN_STEP_HOOKS = frozenset({"training_step", "training_step_end", "on_train_batch_end"})
# a checkpoint saved every N steps or every interval ranks step values on purpose
_STEP_SAVES = ("every_n_train_steps", "train_time_interval")


@register
class MonitoredTrainMetricLastBatch(Rule):
    code = "PF1002"
    needs_text = ("monitor",)
    name = "monitored-train-metric-last-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`ModelCheckpoint`/`EarlyStopping` monitors a metric logged only in `training_step` with the "
               "step-level default: each epoch is judged by its last batch")
    explanation = """
## What it finds

In one file: a Lightning `ModelCheckpoint(monitor="train_loss")` or
`EarlyStopping(monitor="train_loss")`, and `self.log("train_loss", loss)` in `training_step`
(or `training_step_end`/`on_train_batch_end`) without `on_epoch=True`, with no other
`self.log` of that name in the file.

## Why it matters

In the training loop `self.log` defaults to `on_step=True, on_epoch=False`, so
`trainer.callback_metrics["train_loss"]` holds the value of the last batch logged.
The checkpoint callback ranks epochs, and early stopping counts its patience, with the loss
of one batch per epoch (a different last batch every epoch when the loader shuffles): the
"best" checkpoint is the epoch whose last batch happened to be easy (Lightning issue 13147,
"Logger connector callback metrics only contains the last step": the maintainer's answer is
`on_step=False, on_epoch=True`).

## How to fix it

Log the monitored value with `on_epoch=True` (the epoch mean reaches the callbacks), or
monitor a validation metric.

## When preflight stays silent

* The metric is logged with `on_epoch=True` (or `**kwargs`) somewhere in the file, or is
  also logged outside the training-step hooks (validation, an epoch-end hook).
* The checkpoint saves every N training steps or every time interval
  (`every_n_train_steps`, `train_time_interval`): it ranks step values on purpose.
* The monitored name is not a literal, or no callback of the same file monitors it.
"""
    bad_examples = examples("preflight.rules.code._pf1002_examples", "PF1002_BAD")
    good_examples = examples("preflight.rules.code._pf1002_examples", "PF1002_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        monitored, _ = monitored_metrics(ctx)
        if not monitored:
            return
        step_only: dict[str, list[ast.Call]] = {}
        elsewhere: set[str] = set()
        for call, name in self_log_calls(ctx):
            if name not in monitored:
                continue
            fn = ctx.enclosing_function(call)
            in_step = isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in _TRAIN_STEP_HOOKS
            unpacks = any(k.arg is None for k in call.keywords)
            flag = kwarg(call, "on_epoch")
            epoch_off = flag is None or literal(ctx, flag) is False
            if in_step and not unpacks and epoch_off:
                step_only.setdefault(name, []).append(call)
            else:
                elsewhere.add(name)
        for name, found in step_only.items():
            callback = monitored[name]
            if name in elsewhere or any(kwarg(callback, k) is not None for k in _STEP_SAVES):
                continue
            for call in found:
                yield ctx.finding(
                    self, call,
                    f"`{name}` is monitored by `{ast.unparse(callback.func)}` but logged only here, in the training "
                    "step, with Lightning's default `on_step=True, on_epoch=False`: the callback metrics hold the "
                    "value of each epoch's last batch, so the callback ranks (or stops) epochs by one batch's loss. "
                    "Log it with `on_epoch=True`, or monitor a validation metric",
                    evidence=[ctx.evidence(callback, f"monitors `{name}`")])
