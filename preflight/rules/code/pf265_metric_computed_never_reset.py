"""PF265 metric-computed-never-reset: a torchmetrics metric of a LightningModule computed by hand and
never reset nor handed to ``self.log``: its states accumulate over every epoch."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples


def _self_attr(node: ast.AST) -> str:
    """``name`` for ``self.name``, else ""."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return ""


# running extremes: their point is to keep the best value over every epoch (lightning-hydra-template's
# `self.val_acc_best = MaxMetric()` fed with each epoch's accuracy), so never resetting them is the design
_BEST_SO_FAR = frozenset({"MaxMetric", "MinMetric"})


@register
class MetricComputedNeverReset(Rule):
    code = "PF265"
    needs_text = ("torchmetrics",)
    name = "metric-computed-never-reset"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A torchmetrics metric of a LightningModule is computed by hand but never reset nor passed to "
               "`self.log`: it accumulates over every epoch")
    explanation = """
## What it finds

In a `LightningModule`, a torchmetrics metric kept as an attribute (`self.valid_acc =
torchmetrics.Accuracy(...)`), whose `compute()` the module calls itself
(`self.valid_acc.compute()` in `on_validation_epoch_end`), when nothing in the class calls
its `reset()` and the metric object itself is never given to `self.log`/`self.log_dict`.

## Why it matters

A torchmetrics metric keeps its states (counts, sums) until `reset()`. Lightning resets a
metric at the epoch end only when the metric object was passed to `self.log` ("Lightning
... will reset the metric", torchmetrics issue 269: "`.reset()` method not called at the
end of an epoch"). A metric computed by hand keeps every update since the run started,
the sanity check's included: the value reported each epoch is a running average over all
epochs so far, and a `ModelCheckpoint`/`EarlyStopping` monitoring it ranks the wrong epochs.

## How to fix it

Call `self.valid_acc.reset()` after `compute()`, or log the metric object
(`self.log("val_acc", self.valid_acc, on_epoch=True)`) and let Lightning compute and reset it.

## When preflight stays silent

* The class resets the metric (or calls `reset()` on anything preflight cannot tie to it), or
  logs the metric object itself.
* The metric is handed to code preflight does not follow (a function or another object).
* A `MaxMetric`/`MinMetric`: a best-so-far value (`self.val_acc_best(self.val_acc.compute())`)
  is meant to keep every epoch's update.
"""
    bad_examples = examples("preflight.rules.code._pf265_examples", "PF265_BAD")
    good_examples = examples("preflight.rules.code._pf265_examples", "PF265_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            if not any(ast.unparse(b).endswith("LightningModule") for b in cls.bases):
                continue
            metrics: dict[str, ast.AST] = {}
            for node in ast.walk(cls):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and _self_attr(node.targets[0]) \
                        and isinstance(node.value, ast.Call) \
                        and qualify(ctx, node.value.func).startswith("torchmetrics.") \
                        and qualify(ctx, node.value.func).rsplit(".", 1)[-1] not in _BEST_SO_FAR:
                    metrics[_self_attr(node.targets[0])] = node
            if not metrics:
                continue
            computed: dict[str, ast.Call] = {}
            excused: set[str] = set()
            other_reset = False
            for node in ast.walk(cls):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    owner = _self_attr(node.func.value)
                    if node.func.attr == "compute" and owner in metrics:
                        computed.setdefault(owner, node)
                    elif node.func.attr == "reset":
                        if owner in metrics:
                            excused.add(owner)
                        else:
                            other_reset = True
                if isinstance(node, ast.Call):
                    # the metric object itself as an argument (self.log("acc", self.acc), f(self.acc)): its
                    # reset is Lightning's or another's
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        for sub in ast.walk(arg):
                            name = _self_attr(sub)
                            if (name in metrics and not isinstance(ctx.parent(sub), (ast.Attribute, ast.Call))) or (name in metrics and isinstance(ctx.parent(sub), ast.Call) \
                                    and sub in getattr(ctx.parent(sub), "args", [])):
                                excused.add(name)
            if other_reset:
                continue
            for name, call in computed.items():
                if name in excused:
                    continue
                yield ctx.finding(
                    self, call,
                    f"`self.{name}.compute()` reads a torchmetrics metric that nothing resets: the class never "
                    f"calls `self.{name}.reset()` and never passes the metric object to `self.log` (Lightning resets "
                    "only metric objects it logs), so its states keep every update since the run started, the "
                    "sanity check's included, and each epoch's value is an average over all epochs so far. Call "
                    f"`self.{name}.reset()` after `compute()`, or log the metric object and let Lightning compute "
                    "and reset it",
                    evidence=[ctx.evidence(metrics[name], "the metric is built here")])
