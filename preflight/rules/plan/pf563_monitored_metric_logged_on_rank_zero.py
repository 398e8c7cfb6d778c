"""PF563 monitored-metric-logged-on-rank-zero: a metric monitored by ``ModelCheckpoint``/``EarlyStopping``
is logged only under ``if self.global_rank == 0:`` in a multi-process Lightning run."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._metric_sync import multi_process_arg
from preflight.rules.code.pf476_monitored_metric_logged_rank_zero_only import (
    monitored_metrics,
    self_log_calls,
)
from preflight.sources import ParsedPython

_RANK_WORDS = ("global_rank", "is_global_zero", "local_rank", "rank")


def _rank_zero_test(test: ast.expr) -> bool:
    """``self.global_rank == 0``, ``self.trainer.is_global_zero``, ``rank == 0``, ``not rank``."""
    if isinstance(test, ast.BoolOp):
        return isinstance(test.op, ast.And) and any(_rank_zero_test(v) for v in test.values)
    if isinstance(test, ast.Attribute) and test.attr == "is_global_zero":
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = test.operand
        name = inner.attr if isinstance(inner, ast.Attribute) else inner.id if isinstance(inner, ast.Name) else ""
        return name in ("global_rank", "local_rank", "rank")
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        sides = [test.left, test.comparators[0]]
        zero = any(isinstance(s, ast.Constant) and s.value == 0 and not isinstance(s.value, bool) for s in sides)
        named = any((isinstance(s, ast.Attribute) and s.attr in _RANK_WORDS)
                    or (isinstance(s, ast.Name) and s.id in _RANK_WORDS) for s in sides)
        return zero and named
    return False


def _rank_zero_gate(ctx: FileContext, call: ast.AST) -> Optional[ast.AST]:
    """The ``if`` (or ``@rank_zero_only`` method) that lets only rank 0 reach ``call``."""
    child: ast.AST = call
    node = ctx.parent(call)
    while node is not None:
        if isinstance(node, ast.If) and child in node.body and _rank_zero_test(node.test):
            return node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                if (dec.attr if isinstance(dec, ast.Attribute) else getattr(dec, "id", "")) == "rank_zero_only":
                    return dec
            return None
        child, node = node, ctx.parent(node)
    return None


@register
class MonitoredMetricLoggedOnRankZero(PlanRule):
    code = "PF563"
    name = "monitored-metric-logged-on-rank-zero"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("lightning",)
    summary = ("A metric that `ModelCheckpoint`/`EarlyStopping` monitors is logged only on rank 0 "
               "(`if self.global_rank == 0:`) in a multi-process run: the other ranks cannot find it")
    explanation = """
## What it finds

A `self.log("val_auc", ...)` (or `log_dict`) that only rank 0 reaches (under
`if self.global_rank == 0:`, `if self.trainer.is_global_zero:`, or in a
`@rank_zero_only` method), while a `ModelCheckpoint(monitor="val_auc")` or
`EarlyStopping(monitor="val_auc")` is given to a Lightning `Trainer` that runs several
processes (`devices=4`, `strategy="ddp"`, `num_nodes=2`). The module and the Trainer
may be in different files of the project.

## Why it matters

The callbacks run on every rank and look the monitored key up in that rank's logged
metrics. On the ranks that skipped the `self.log`, `ModelCheckpoint` stops the run with
"MisconfigurationException: `ModelCheckpoint(monitor='val_auc')` could not find the
monitored key in the returned metrics" (`EarlyStopping` raises the same kind of error),
typically after the first validation, hours into the job (Lightning discussion of a
rank-0-only AUC with `ModelCheckpoint(monitor="val_auc")`, the held-out case's report).
Computing the metric on rank 0 after an `all_gather` is fine; logging it there only is not.

## How to fix it

Log the value on every rank: compute it everywhere (it is the same after `all_gather`),
or broadcast it from rank 0, and call `self.log("val_auc", auc, sync_dist=True)` outside
the rank test; or use a `torchmetrics` metric (`AUROC`), which syncs itself.

## When preflight stays silent

* No callback monitors that literal name, or the Trainer's process count is not known to
  be above one, or the project builds several Trainers.
* The `self.log` is not behind a rank-0 test (a test in the `else` branch, or on other names).
* `rank_zero_only=True` alone in the file of the callback is PF476's case.
"""
    bad_examples = examples("preflight.rules.plan._pf563_examples", "PF563_BAD")
    good_examples = examples("preflight.rules.plan._pf563_examples", "PF563_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        monitored: dict[str, tuple[ParsedPython, ast.Call]] = {}
        trainers: list[tuple[ParsedPython, ast.Call]] = []
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            if not fctx.mentions("monitor"):
                continue
            found, built = monitored_metrics(fctx)
            for name, call in found.items():
                monitored.setdefault(name, (script, call))
            trainers.extend((script, t) for t in built)
        if not monitored or len(trainers) != 1:
            return
        t_script, trainer = trainers[0]
        distributed = multi_process_arg(pctx.file_context(t_script), trainer)
        if distributed is None:
            return
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            for call, name in self_log_calls(fctx):
                if name not in monitored:
                    continue
                gate = _rank_zero_gate(fctx, call)
                if gate is None:
                    continue
                m_script, m_call = monitored[name]
                where = ast.unparse(gate.test) if isinstance(gate, ast.If) else "@rank_zero_only"
                yield pctx.code_finding(
                    self, script, call,
                    f"`{name}` is logged only on rank 0 (`{where}`), "
                    f"but `{ast.unparse(m_call.func)}(monitor=\"{name}\")` runs on every rank of this multi-process "
                    f"run (`{ast.unparse(distributed)}`): on the other ranks the key is missing and Lightning raises "
                    "MisconfigurationException (\"could not find the monitored key in the returned metrics\"). Log it "
                    "on every rank (compute or broadcast it everywhere, `sync_dist=True`) or use a torchmetrics metric",
                    evidence=[pctx.code_evidence(m_script, m_call, f"monitors `{name}`"),
                              pctx.code_evidence(t_script, distributed, "several processes")])
