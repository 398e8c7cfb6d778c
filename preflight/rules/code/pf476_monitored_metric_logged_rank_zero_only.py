"""PF476 monitored-metric-rank-zero-only: a metric that a checkpoint or early-stopping callback
monitors, logged with ``rank_zero_only=True`` in a multi-process Lightning run."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._metric_sync import (
    MONITOR_CALLBACKS,
    is_lightning_qual,
    multi_process_arg,
)


def self_log_calls(ctx: FileContext) -> Iterable[tuple[ast.Call, str]]:
    """``self.log("name", value, ...)`` calls with a literal name, and ``self.log_dict({"name": v}, ...)``
    entries (the call with each literal key)."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"):
            continue
        if func.attr == "log" and call.args:
            name = const_str(call.args[0])
            if name is not None:
                yield call, name
        elif func.attr == "log_dict" and call.args and isinstance(call.args[0], ast.Dict):
            for key in call.args[0].keys:
                name = const_str(key)
                if name is not None:
                    yield call, name


def monitored_metrics(ctx: FileContext) -> tuple[dict[str, ast.Call], list[ast.Call]]:
    """Lightning ``ModelCheckpoint``/``EarlyStopping`` calls by the literal metric they monitor, and
    the file's Lightning ``Trainer`` calls."""
    monitored: dict[str, ast.Call] = {}
    trainers: list[ast.Call] = []
    for built, qual in calls(ctx):
        last = qual.rsplit(".", 1)[-1]
        if last in MONITOR_CALLBACKS and is_lightning_qual(qual):
            name = const_str(kwarg(built, "monitor"))
            if name is not None:
                monitored.setdefault(name, built)
        elif last == "Trainer" and is_lightning_qual(qual):
            trainers.append(built)
    return monitored, trainers


@register
class MonitoredMetricRankZeroOnly(Rule):
    code = "PF476"
    needs_text = ("rank_zero_only",)
    name = "monitored-metric-rank-zero-only"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A metric monitored by `ModelCheckpoint`/`EarlyStopping` is logged with `rank_zero_only=True` "
               "in a multi-process run")
    explanation = """
## What it finds

In one file: a Lightning `Trainer` that runs several processes (`devices=4`,
`strategy="ddp"`, `num_nodes=2`), a `ModelCheckpoint(monitor="val_auc")` or
`EarlyStopping(monitor="val_auc")`, and a `self.log("val_auc", value, rank_zero_only=True)`.

## Why it matters

Lightning's `LightningModule.log` documents `rank_zero_only`: "If ``True``, you won't
be able to use this metric as a monitor in callbacks (e.g., early stopping). Warning:
Improper use can lead to deadlocks!". With `rank_zero_only=True` the value is never
reduced across processes (the `sync_dist` reduction is replaced by a no-op, even with
`sync_dist=True`), while the checkpoint and early-stopping callbacks run on every rank:
the ranks track different values, `best_model_score`/`best_model_path` are not updated
as expected, and ranks can disagree about stopping (Lightning issue 19072).

## How to fix it

Log the monitored metric from every process without `rank_zero_only`
(`self.log("val_auc", auc, sync_dist=True)`), and keep `rank_zero_only=True` for
values that are only logged, never monitored.

## When preflight stays silent

* The metric is not monitored by a callback built in the same file (by literal name).
* The Trainer runs one process, or its process count is not known in the file, or the
  file builds several Trainers.
* `rank_zero_only` is not literally `True`.
"""
    bad_examples = examples("preflight.rules.code._pf476_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf476_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        monitored, trainers = monitored_metrics(ctx)
        if not monitored or len(trainers) != 1:
            return
        distributed = multi_process_arg(ctx, trainers[0])
        if distributed is None:
            return
        for call, name in self_log_calls(ctx):
            if name not in monitored:
                continue
            flag = kwarg(call, "rank_zero_only")
            if flag is None or literal(ctx, flag) is not True:
                continue
            yield ctx.finding(
                self, call,
                f"`{name}` is monitored by `{ast.unparse(monitored[name].func)}` in a multi-process run "
                f"(`{ast.unparse(distributed)}`), but it is logged with `rank_zero_only=True`: Lightning then "
                "never reduces it across processes (not even with `sync_dist=True`) while the callback runs on "
                "every rank, so `best_model_score`/`best_model_path` go wrong and ranks can disagree. Lightning's "
                "docs: with `rank_zero_only=True` \"you won't be able to use this metric as a monitor in "
                "callbacks\". Log it from every process without `rank_zero_only`",
                evidence=[ctx.evidence(monitored[name], f"monitors `{name}`"),
                          ctx.evidence(distributed, "several processes")])
