"""PF182 self-log-on-rank-zero-only: a LightningModule calls ``self.log`` only on rank 0 (under
``if self.trainer.is_global_zero:`` or ``@rank_zero_only``) without ``rank_zero_only=True``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_guard
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning, lightning_classes, log_calls


def _keyword_true(call: ast.Call, name: str) -> bool:
    kw = next((k for k in call.keywords if k.arg == name), None)
    return kw is not None and isinstance(kw.value, ast.Constant) and kw.value.value is True


def _keyword_absent_or_false(call: ast.Call, name: str) -> bool:
    kw = next((k for k in call.keywords if k.arg == name), None)
    return kw is None or (isinstance(kw.value, ast.Constant) and kw.value.value is False)


def _multi_process_trainer(ctx: FileContext) -> bool:
    """A ``Trainer(...)`` of the file runs several processes: a literal ddp/fsdp/deepspeed strategy, or a literal
    device/GPU count above one (or -1), or several nodes."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name != "Trainer":
            continue
        for kw in call.keywords:
            value = kw.value.value if isinstance(kw.value, ast.Constant) else None
            if kw.arg == "strategy" and isinstance(value, str) and value.startswith(("ddp", "fsdp", "deepspeed")):
                return True
            if kw.arg in ("devices", "gpus", "num_nodes") and type(value) is int and (value > 1 or value == -1):
                return True
    return False


@register
class SelfLogOnRankZeroOnly(Rule):
    code = "PF182"
    name = "self-log-on-rank-zero-only"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    summary = ("A LightningModule calls `self.log` only on rank 0 (`if self.trainer.is_global_zero:`, "
               "`@rank_zero_only`) without `rank_zero_only=True`: under DDP the ranks disagree on the logged "
               "metrics and the run can hang")
    frameworks = ("lightning",)
    needs_text = ("self.log",)
    explanation = """
## What it finds

In a file that imports Lightning and builds a multi-process `Trainer`, a `self.log(...)` / `self.log_dict(...)` call in a
`LightningModule` method that runs on rank 0 only: under `if self.trainer.is_global_zero:`,
`if self.global_rank == 0:` (any rank-0 test), or in a method decorated with
`@rank_zero_only`, where the call does not pass `rank_zero_only=True` (or passes
`rank_zero_only=False` / a non-literal).

## Why it matters

`self.log` assumes every process makes the same call: with `sync_dist=True` it all-reduces the
value across ranks (rank 0 waits in a collective the other ranks never enter), and the logged
values feed `ModelCheckpoint`/`EarlyStopping`, whose decisions must agree across ranks
(Lightning issue 19045: monitor values that diverge between ranks leave the checkpoint callback
waiting forever on some ranks). Lightning's logging guide says it directly: "If you call
`self.log` on rank 0 only, you need to set `rank_zero_only=True`" (visualize/logging_advanced,
`rank_zero_only`). Under DDP the job hangs at the end of the epoch, or the ranks track
different metrics.

## How to fix it

Call `self.log` on every rank (compute the metric on every rank, or log it with
`sync_dist=True`), or keep the rank-0 branch and pass `rank_zero_only=True` (the metric then
cannot be monitored by callbacks).

## When preflight stays silent

* The call passes `rank_zero_only=True`.
* The call runs on every rank (the guard is elsewhere, or both branches log the same call).
* No `Trainer(...)` of the same file runs several processes (a literal `strategy="ddp"`/fsdp/deepspeed,
  or a literal `devices`/`gpus` above one or -1, or `num_nodes` above one): on one device nothing waits.
* The class is not a `LightningModule` of the file (a callback's `pl_module.log`, a plain logger).
"""
    bad_examples = examples("preflight.rules.code._pf182_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf182_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not imports_lightning(ctx, ctx.tree):
            return
        modules = lightning_classes(ctx)
        if not modules or not _multi_process_trainer(ctx):
            return
        flags = rank_zero_flags_in(ctx)
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in modules:
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                for call in log_calls(fn):
                    if _keyword_true(call, "rank_zero_only") or any(k.arg is None for k in call.keywords):
                        continue
                    guard = rank_zero_guard(ctx.ancestors, call, flags)
                    if guard is None:
                        continue
                    synced = _keyword_true(call, "sync_dist")
                    how = ("with `sync_dist=True` it all-reduces the value, a collective the other ranks never enter, "
                           "so rank 0 blocks" if synced else
                           "the other ranks never make this call, so the logged metrics (and any callback "
                           "monitoring them) disagree across ranks and the run can hang at the epoch end "
                           "(Lightning issue 19045)")
                    yield ctx.finding(
                        self, call,
                        f"`{ast.unparse(call.func)}` runs on rank 0 only (`{ast.unparse(getattr(guard, 'test', guard))}`, "
                        f"line {getattr(guard, 'lineno', 0)}) without `rank_zero_only=True`: {how}; Lightning's logging guide: "
                        "\"If you call `self.log` on rank 0 only, you need to set `rank_zero_only=True`\". Log on every "
                        "rank, or pass `rank_zero_only=True`",
                        evidence=[ctx.evidence(guard, "only rank 0 passes here")])
