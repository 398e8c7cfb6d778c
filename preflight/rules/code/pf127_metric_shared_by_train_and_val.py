"""PF127 metric-shared-by-train-and-val: one torchmetrics metric object of a LightningModule is updated in
both ``training_step`` and ``validation_step``; its accumulated state mixes training and validation batches."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples

_METRIC_ROOTS = ("torchmetrics.", "pytorch_lightning.metrics.")
_STAGES = {"training_step": "training", "validation_step": "validation"}
_UPDATES = frozenset({"update", "forward"})


def _metric_attrs(ctx: FileContext, cls: ast.ClassDef) -> dict[str, ast.Assign]:
    """``self.X = torchmetrics.Y(...)`` in the class's ``__init__`` (a metric object, not a function)."""
    out: dict[str, ast.Assign] = {}
    for fn in cls.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "__init__"):
            continue
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            value = node.value
            while isinstance(value.func, ast.Attribute) and value.func.attr in ("to", "cuda", "cpu") \
                    and isinstance(value.func.value, ast.Call):
                value = value.func.value
            qual = qualify(ctx, value.func)
            last = qual.rsplit(".", 1)[-1]
            if not (qual.startswith(_METRIC_ROOTS) and last[:1].isupper() and ".functional." not in qual):
                continue
            for tgt in node.targets:
                if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name) and tgt.value.id == "self":
                    out[tgt.attr] = node
    return out


def _updates(fn: ast.FunctionDef, attr: str) -> list[ast.Call]:
    """``self.attr(...)``, ``self.attr.update(...)``, ``self.attr.forward(...)`` in ``fn``."""
    out = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        direct = isinstance(f, ast.Attribute) and f.attr == attr and isinstance(f.value, ast.Name) \
            and f.value.id == "self"
        method = isinstance(f, ast.Attribute) and f.attr in _UPDATES and isinstance(f.value, ast.Attribute) \
            and f.value.attr == attr and isinstance(f.value.value, ast.Name) and f.value.value.id == "self"
        if direct or method:
            out.append(node)
    return out


def _helpers(fn: ast.FunctionDef, methods: dict[str, ast.FunctionDef]) -> list[ast.FunctionDef]:
    """``fn`` and the methods of its class it calls as ``self.m(...)`` (one level)."""
    out = [fn]
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self" \
                and node.func.attr in methods and methods[node.func.attr] is not fn \
                and node.func.attr not in _STAGES:
            out.append(methods[node.func.attr])
    return out


@register
class MetricSharedByTrainAndVal(Rule):
    code = "PF127"
    name = "metric-shared-by-train-and-val"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("validation_step",)
    summary = "One torchmetrics metric object is updated in both training_step and validation_step: its state mixes training and validation batches"
    explanation = """
## What it finds

A LightningModule attribute built in `__init__` from a torchmetrics metric class
(`self.acc = torchmetrics.Accuracy(...)`) that is updated — called, or `.update(...)` — both in
`training_step` and in `validation_step` (directly or through a method of the module both call,
such as a shared `_step`), and whose accumulated state is read: the object itself is logged
(`self.log("val_acc", self.acc)`) or `self.acc.compute()` is called.

## Why it matters

A module metric accumulates state across calls until it is computed and reset. Lightning runs
validation inside the training epoch, so the validation batches are added to the same state as
the training batches: the epoch-level training accuracy and the validation accuracy both mix the
two sets (torchmetrics "Common pitfalls": "Modular metrics contain internal states that should
belong to only one DataLoader"; graviraja/MLOps-Basics#16: "using the same instance for both
train and val might not lead to correct results when computed over epoch").

## How to fix it

One instance per stage: `self.train_acc = Accuracy(...)`, `self.val_acc = Accuracy(...)`
(or `MetricCollection(...).clone(prefix="val/")`), each updated and logged in its own step.

## When preflight stays silent

* Each stage updates its own attribute, or the metric is chosen per stage
  (`metric = self.train_acc if stage == "train" else self.val_acc`), or the shared helper
  updates it under an `if` (a per-stage branch).
* The attribute is a functional metric or not from torchmetrics, or is updated in one of the
  two steps only (validation and test sharing one object are not reported).
* Only the batch values the calls return are logged (`self.log("acc", self.acc(p, y))`): those
  are computed on the current batch alone and do not mix.
"""
    bad_examples = examples("preflight.rules.code._pf127_examples", "PF127_BAD")
    good_examples = examples("preflight.rules.code._pf127_examples", "PF127_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            if not any(ast.unparse(b).rsplit(".", 1)[-1] == "LightningModule" for b in cls.bases):
                continue
            metrics = _metric_attrs(ctx, cls)
            if not metrics:
                continue
            methods = {fn.name: fn for fn in cls.body if isinstance(fn, ast.FunctionDef)}
            if not all(stage in methods for stage in _STAGES):
                continue
            for attr, ctor in metrics.items():
                if not self._state_read(cls, attr):
                    continue  # only the batch values `self.attr(...)` returns are used: they do not mix
                found: dict[str, Optional[ast.Call]] = {}
                for stage in _STAGES:
                    calls = [c for fn in _helpers(methods[stage], methods) for c in _updates(fn, attr)
                             if fn is methods[stage] or not self._conditional(ctx, c, fn)]
                    found[stage] = calls[0] if calls else None
                train, val = found["training_step"], found["validation_step"]
                if train is None or val is None:
                    continue
                yield ctx.finding(
                    self, val,
                    f"`self.{attr}` (one torchmetrics object, line {ctor.lineno}) is updated in training_step "
                    f"(line {train.lineno}) and here in validation_step: validation runs inside the training "
                    f"epoch, so its state mixes training and validation batches and both epoch values are wrong. "
                    f"Create one metric per stage (`self.train_{attr}`, `self.val_{attr}`)",
                    evidence=[ctx.evidence(train, "the training update of the same object"),
                              ctx.evidence(ctor, "the single metric object")])

    @staticmethod
    def _conditional(ctx: FileContext, call: ast.Call, fn: ast.FunctionDef) -> bool:
        """``call`` sits under an ``if`` of the shared helper ``fn`` (a per-stage branch)."""
        for anc in ctx.ancestors(call):
            if anc is fn:
                return False
            if isinstance(anc, (ast.If, ast.IfExp)):
                return True
        return False

    @staticmethod
    def _state_read(cls: ast.ClassDef, attr: str) -> bool:
        """The accumulated state is read: the object is logged (``self.log(k, self.attr)``, in a dict too)
        or computed (``self.attr.compute()``)."""
        for node in ast.walk(cls):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            f = node.func
            if f.attr == "compute" and isinstance(f.value, ast.Attribute) and f.value.attr == attr \
                    and isinstance(f.value.value, ast.Name) and f.value.value.id == "self":
                return True
            if f.attr in ("log", "log_dict") and isinstance(f.value, ast.Name) and f.value.id == "self":
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    used = {id(c.func) for c in ast.walk(arg) if isinstance(c, ast.Call)} | {
                        id(a.value) for a in ast.walk(arg) if isinstance(a, ast.Attribute)}
                    if any(isinstance(n, ast.Attribute) and n.attr == attr and isinstance(n.value, ast.Name)
                           and n.value.id == "self" and id(n) not in used for n in ast.walk(arg)):
                        return True  # the metric object itself is logged
        return False
