"""PF372 monitored-metric-not-synced-across-files: PF438 across the files of a project: the
``LightningModule`` that logs a monitored validation metric without ``sync_dist=True`` is in one file,
the multi-process ``Trainer`` and the ``ModelCheckpoint``/``EarlyStopping`` that monitors it in another."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._metric_sync import multi_process_arg
from preflight.rules.code.pf438_monitored_metric_not_synced import unsynced_validation_logs
from preflight.rules.code.pf476_monitored_metric_logged_rank_zero_only import monitored_metrics
from preflight.sources import ParsedPython


@register
class MonitoredMetricNotSyncedAcrossFiles(PlanRule):
    code = "PF372"
    name = "monitored-metric-not-synced-across-files"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A validation metric that `ModelCheckpoint`/`EarlyStopping` monitors in the training script is "
               "logged by the LightningModule of another file without `sync_dist=True` in a multi-process run")
    explanation = """
## What it finds

PF438's bug when the project splits it over files, as most Lightning projects do: the
training script builds one Lightning `Trainer` that runs several processes
(`devices=4`, `gpus=4`, `strategy="ddp"`, `num_nodes=2`) and a
`ModelCheckpoint(monitor="val_acc")` or `EarlyStopping(monitor="val_acc")`, and the
`LightningModule` in `model.py` logs `self.log("val_acc", acc)` in a validation hook
without `sync_dist=True`.

## Why it matters

Each process logs the mean over its own shard of the validation set, and without
`sync_dist=True` Lightning does not reduce a plain tensor across processes: the logged
`val_acc` and the number the checkpoint callback compares are rank 0's value on its
quarter of the data, not the metric of the validation set (Lightning issue 3226, "Sync
metrics between all GPUs before logging when using DDP"). Lightning itself warns at
epoch end, in `trainer/connectors/logger_connector/result.py`: "It is recommended to use
`self.log('val_acc', ..., sync_dist=True)` when logging on epoch level in distributed
setting to accumulate the metric across devices" (a `PossibleUserWarning`, which many
projects filter out).

## How to fix it

`self.log("val_acc", acc, sync_dist=True)`, or log a torchmetrics `Metric` object of
the module (Lightning synchronises those itself).

## When preflight stays silent

* The logged value is an attribute of the module (`self.val_acc`, a torchmetrics
  metric), is computed from gathered or reduced values (`self.all_gather`,
  `dist.all_reduce`, `self.trainer.strategy.reduce`), or `sync_dist` is given (or
  `**kwargs` may give it).
* The Trainer runs one process or its process count is not known statically; the
  project builds several Trainers (which module each one fits is not followed).
* The metric is not monitored by a callback with a literal `monitor=` name.
* Module, callback and Trainer are all in one file: that is PF438's finding.
"""
    bad_examples = examples("preflight.rules.plan._pf372_examples", "PF372_BAD")
    good_examples = examples("preflight.rules.plan._pf372_examples", "PF372_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        monitored: dict[str, tuple[ParsedPython, ast.Call]] = {}
        trainers: list[tuple[ParsedPython, ast.Call]] = []
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            if not fctx.mentions("monitor") and not fctx.mentions("Trainer"):
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
            if not fctx.mentions("self.log"):
                continue
            names = [n for n, (m_script, _) in monitored.items()
                     if not (script is t_script and m_script is t_script)]
            for call, name in unsynced_validation_logs(fctx, names):
                m_script, m_call = monitored[name]
                yield pctx.code_finding(
                    self, script, call,
                    f"`{name}` is monitored by `{ast.unparse(m_call.func)}(monitor=\"{name}\")` in a multi-process "
                    f"run (`{ast.unparse(distributed)}`), but this validation hook logs it without `sync_dist=True`: "
                    "each process keeps the mean of its own shard, so the logged value and the one the callback "
                    "compares are rank 0's partial metric, not the whole validation set's. Log it with "
                    "`sync_dist=True` (or log a torchmetrics metric)",
                    evidence=[pctx.code_evidence(m_script, m_call, f"monitors `{name}`"),
                              pctx.code_evidence(t_script, distributed, "several processes")])
