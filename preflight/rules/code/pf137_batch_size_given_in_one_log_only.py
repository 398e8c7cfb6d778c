"""PF137 batch-size-given-in-one-log-only: a LightningModule passes ``batch_size=`` computed from the batch
in one ``self.log`` but leaves it out of another epoch-averaged log: Lightning guesses that size."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import keyword, names_in
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import (
    averaged_without_size,
    imports_lightning,
    lightning_classes,
    log_calls,
)

_STEPS = ("training_step", "validation_step", "test_step")
_EPOCH_DEFAULT = {"validation_step", "test_step"}


def _batch_name(fn: ast.FunctionDef) -> Optional[str]:
    params = [*fn.args.posonlyargs, *fn.args.args]
    return params[1].arg if len(params) >= 2 and params[0].arg == "self" else None


def _reached(methods: dict[str, ast.FunctionDef], step: ast.FunctionDef) -> list[ast.FunctionDef]:
    """The step and the methods of the class it calls (``self._shared_step(batch)``), one level deep."""
    out = [step]
    for node in ast.walk(step):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(
                node.func.value, ast.Name) and node.func.value.id == "self" and node.func.attr in methods:
            fn = methods[node.func.attr]
            if fn not in out:
                out.append(fn)
    return out


@register
class BatchSizeGivenInOneLogOnly(Rule):
    code = "PF137"
    name = "batch-size-given-in-one-log-only"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A LightningModule passes `batch_size=` computed from the batch in one `self.log` but not in another "
               "epoch-averaged one: there Lightning infers the size from the first tensor of the batch")
    frameworks = ("lightning",)
    needs_text = ("batch_size",)
    explanation = """
## What it finds

A LightningModule where a `training_step`/`validation_step`/`test_step` logs with
`batch_size=` computed from its batch (`batch_size=batch["label"].shape[0]`,
`len(batch["label"])`), while another step (or the same one) logs an epoch-averaged value
(`validation_step`/`test_step` by default, or `on_epoch=True`) without `batch_size=`.

## Why it matters

Epoch values are means of the step values weighted by the batch size. Where `batch_size=` is
missing, Lightning takes the first dimension of the first tensor it finds in the batch
("Trying to infer the `batch_size` from an ambiguous collection"). The module's own
`batch_size=` elsewhere says that size is not the number of samples (bags of tiles, packed
sequences, graphs): the epoch `val/loss` that `ModelCheckpoint` and `EarlyStopping` monitor is
then weighted by tile counts instead of samples, a biased metric with no error
(microsoft/hi-ml#634: "otherwise there's a risk that we've been looking at biased metrics all
along").

## How to fix it

Pass the same `batch_size=` to every epoch-averaged log of the module.

## When preflight stays silent

* Every epoch-averaged log passes `batch_size=` (or `**kwargs`), or no log computes one from
  the batch (nothing says the inferred size is wrong).
* The log without it sits in a function that passes `batch_size=` to another of its logs (a
  choice made call by call, e.g. a shared `_log_metrics` helper).
* The value is a torchmetrics object, logged per step only, or reduced with another `reduce_fx`.
* The size given is a graph count (`batch.num_graphs`): a PyTorch Geometric batch is PF680's.
* The class is not a LightningModule of the file, or the file does not import Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf137_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf137_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = lightning_classes(ctx)
        if not names or not imports_lightning(ctx, ctx.tree):
            return
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in names:
                continue
            methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
            steps = [methods[h] for h in _STEPS if h in methods and _batch_name(methods[h])]
            sized: Optional[ast.Call] = None
            for step in steps:
                batch = _batch_name(step)
                for fn in _reached(methods, step):
                    for call in log_calls(fn):
                        size = keyword(call, "batch_size")
                        if sized is None and size is not None and batch in names_in(size) and (
                                "num_graphs" not in ast.unparse(size)):
                            sized = call
            sized_value = keyword(sized, "batch_size") if sized is not None else None
            if sized is None or sized_value is None:
                continue
            # a function that sizes some of its logs and not others chose per call: left alone
            missing = sorted({c for step in steps for fn in _reached(methods, step)
                              if not any(keyword(c, "batch_size") is not None for c in log_calls(fn))
                              for c in log_calls(fn) if averaged_without_size(c, step.name in _EPOCH_DEFAULT)},
                             key=lambda c: (c.lineno, c.col_offset))
            for call in missing:
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call.func)}(...)` averages a value over the epoch without `batch_size=`, while "
                    f"line {sized.lineno} of this module passes `batch_size={ast.unparse(sized_value)}`"
                    ": here Lightning infers the size from the first tensor of the batch, which the module itself "
                    "says is not the number of samples, so the epoch mean (the value a checkpoint or early stop "
                    "monitors) is weighted wrongly. Pass the same `batch_size=`",
                    evidence=[ctx.evidence(sized, "the batch size the module computes")])
