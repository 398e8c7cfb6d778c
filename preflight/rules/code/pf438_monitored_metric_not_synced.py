"""PF438 monitored-metric-not-synced: a validation metric that a checkpoint or early-stopping
callback monitors, logged without ``sync_dist=True`` in a multi-process Lightning run."""

from __future__ import annotations

import ast
from typing import Collection, Iterable, Iterator

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

_VALIDATION_HOOKS = frozenset({"validation_step", "on_validation_epoch_end", "validation_epoch_end",
                               "validation_step_end"})


# collectives whose result is the same on every rank (``self.all_gather``, ``dist.all_reduce``,
# ``self.trainer.strategy.reduce``, ``accelerator.gather_for_metrics``)
_COLLECTIVES = frozenset({"all_gather", "all_gather_object", "all_reduce", "gather_for_metrics", "reduce_boolean_decision"})
_RECEIVED = frozenset({"gather", "reduce"})  # only on a strategy / accelerator / torch.distributed receiver


def _collective(call: ast.AST) -> bool:
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in _COLLECTIVES:
            return True
        if func.attr in _RECEIVED:
            receiver = ast.unparse(func.value)
            return receiver in ("dist", "torch.distributed") or receiver.endswith(("strategy", "accelerator"))
    return isinstance(func, ast.Name) and func.id in _COLLECTIVES


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _synced(fn: ast.FunctionDef) -> set[str]:
    """Names of ``fn`` whose value comes from a collective, in statement order: assigned from an
    expression that calls one (``y = self.all_gather(y)``) or that reads a synced name
    (``rmse = torch.sqrt(F.mse_loss(y, t))``), and the tensors a collective fills in place
    (``dist.all_reduce(total)``, ``dist.all_gather(parts, x)``)."""
    synced: set[str] = set()
    statements = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.Expr))),
                        key=lambda n: (n.lineno, n.col_offset))
    for stmt in statements:
        value = stmt.value
        if value is None:
            continue
        if isinstance(stmt, ast.Expr):
            if _collective(value):
                assert isinstance(value, ast.Call)
                synced.update(a.id for a in value.args[:1] if isinstance(a, ast.Name))
            continue
        if not (any(_collective(n) for n in ast.walk(value)) or _names(value) & synced):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            synced.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return synced


def unsynced_validation_logs(ctx: FileContext, names: Collection[str]) -> Iterator[tuple[ast.Call, str]]:
    """``self.log("name", value)`` calls in validation hooks of the file whose literal name is in ``names``,
    logged without ``sync_dist`` (not given, or a literal False) and whose value is neither a module attribute
    (a torchmetrics ``Metric``) nor computed from gathered / reduced values."""
    for fn in ctx.nodes(ast.FunctionDef):
        if fn.name not in _VALIDATION_HOOKS:
            continue
        synced = _synced(fn)
        for node in ast.walk(fn):
            call = node
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "log" and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == "self" and len(call.args) >= 2):
                continue
            name = const_str(call.args[0])
            if name is None or name not in names:
                continue
            value = call.args[1]
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
                continue  # a torchmetrics Metric of the module: synced by Lightning
            if _collective(value) or any(_collective(n) for n in ast.walk(value)) or _names(value) & synced:
                continue  # computed from gathered / reduced values: the same on every rank
            sync = kwarg(call, "sync_dist")
            if any(k.arg is None for k in call.keywords) or (sync is not None and literal(ctx, sync) is not False):
                continue
            yield call, name


@register
class MonitoredMetricNotSynced(Rule):
    code = "PF438"
    needs_text = ("sync_dist", "self.log")
    name = "monitored-metric-not-synced"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A metric monitored by `ModelCheckpoint`/`EarlyStopping` is logged in validation without "
               "`sync_dist=True` in a multi-process run")
    explanation = """
## What it finds

In one file: a Lightning `Trainer` that runs several processes (`devices=4`,
`strategy="ddp"`, `num_nodes=2`), a `ModelCheckpoint(monitor="val_loss")` or
`EarlyStopping(monitor="val_loss")`, and a `self.log("val_loss", loss)` in a
validation hook with no `sync_dist=True`.

## Why it matters

Each process logs the mean over its own shard of the validation set. Without
`sync_dist=True` the values are not reduced across processes, so the callback
on each rank compares a different number: the "best" checkpoint is chosen from
rank 0's shard only, and ranks can disagree about saving or stopping (Lightning
warns "It is recommended to use `self.log(..., sync_dist=True)` when logging on
epoch level in distributed setting"; lightning-bolts PR 371).

## How to fix it

`self.log("val_loss", loss, sync_dist=True)`, or log a torchmetrics `Metric`
object (Lightning synchronises those itself).

## When preflight stays silent

* The logged value is an attribute of the module (`self.val_loss`, a torchmetrics
  metric that syncs itself), or `sync_dist` is given.
* The logged value is computed from gathered or reduced values (`y = self.all_gather(y)`
  then `rmse = torch.sqrt(F.mse_loss(y, t))`; `dist.all_reduce(total)`;
  `self.trainer.strategy.reduce(x)`): every rank logs the same number (lightning 5604's fix).
* The Trainer runs one process, or its device count is not known in the file.
* The metric is not monitored by a callback built in the same file, or the file
  builds several Trainers (a test file: which module each one fits is not followed).
"""
    bad_examples = examples("preflight.rules.code._pf438_examples", "PF438_BAD")
    good_examples = examples("preflight.rules.code._pf438_examples", "PF438_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
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
        # one Trainer: the job of the file (a test file builds many, each with its own modules)
        if not monitored or len(trainers) != 1:
            return
        distributed = multi_process_arg(ctx, trainers[0])
        if distributed is None:
            return
        for call, name in unsynced_validation_logs(ctx, monitored):
            yield ctx.finding(
                self, call,
                f"`{name}` is monitored by `{ast.unparse(monitored[name].func)}` in a multi-process run "
                f"(`{ast.unparse(distributed)}`), but it is logged without `sync_dist=True`: each process "
                "keeps the mean of its own shard, so the callback compares rank 0's partial value and ranks "
                "can disagree. Log it with `sync_dist=True`",
                evidence=[ctx.evidence(monitored[name], f"monitors `{name}`"),
                          ctx.evidence(distributed, "several processes")])
