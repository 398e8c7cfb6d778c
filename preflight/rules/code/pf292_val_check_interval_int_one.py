"""PF292 val-check-interval-int-one: ``Trainer(val_check_interval=1)``, an int, validates after every
training batch; ``1.0`` (a float) is once per epoch."""

from __future__ import annotations

import ast
import os
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning

# Trainer arguments that make a run a deliberate debug or smoke run
_DEBUG_ARGS = frozenset({"fast_dev_run", "overfit_batches", "limit_train_batches", "limit_val_batches",
                         "max_steps"})


def _is_int_one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 1


def _test_code(ctx: FileContext, call: ast.Call) -> bool:
    """A test file (``test_*.py``, ``*_test.py``, ``conftest.py``) or a ``test_*`` function / fixture."""
    name = os.path.basename(str(ctx.parsed.source.path))
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    for anc in ctx.ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                anc.name.startswith("test") or any("fixture" in ast.unparse(d) for d in anc.decorator_list)):
            return True
    return False


@register
class ValCheckIntervalIntOne(Rule):
    code = "PF292"
    name = "val-check-interval-int-one"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    summary = ("`Trainer(val_check_interval=1)`: an int counts training batches, so the whole validation "
               "loop runs after every batch (`1.0` is once per epoch)")
    frameworks = ("lightning",)
    needs_text = ("val_check_interval",)
    explanation = """
## What it finds

A Lightning `Trainer(...)` (or `Trainer.from_argparse_args(..., ...)`) given
`val_check_interval=1`, the int literal, in a file that imports Lightning.

## Why it matters

Lightning reads `val_check_interval` by its type (Lightning's docs, `fast_training.rst`: "Pass
in a float to check that often within 1 training epoch. Pass in an int k to check every k
training batches").
`1` therefore runs the full validation loop after every single training batch, not once per
epoch as `1.0` does: an epoch of N training batches runs N validation passes, so the job costs
many times what it should and a `ModelCheckpoint` on a validation metric saves after every
batch (Lightning-AI/pytorch-lightning#9435, closed as intended: 64 training batches, 4,098
validation batches instead of 66).

## How to fix it

Write `val_check_interval=1.0` (or drop it: `1.0` is the default), or use
`check_val_every_n_epoch`. If validating after every batch is what you want, set
`limit_val_batches` too, or suppress the finding.

## When preflight stays silent

* The value is a float (`1.0`), another int (`val_check_interval=500`: every 500 batches is a
  common, deliberate setting), or not a literal.
* The same `Trainer` call is a debug or smoke run: `fast_dev_run`, `overfit_batches`,
  `limit_train_batches`, `limit_val_batches` or `max_steps` is set.
* The call is test code (`test_*.py`, `*_test.py`, `conftest.py`, a `test_*` function, a
  pytest fixture).
* The file does not import Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf292_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf292_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        hits = []
        for call in ctx.nodes(ast.Call):
            func = call.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if last not in ("Trainer", "from_argparse_args"):
                continue
            if last == "from_argparse_args" and not (isinstance(func, ast.Attribute)
                                                     and ast.unparse(func.value).endswith("Trainer")):
                continue
            kw = next((k for k in call.keywords if k.arg == "val_check_interval"), None)
            if kw is None or not _is_int_one(kw.value):
                continue
            if any(k.arg in _DEBUG_ARGS or k.arg is None for k in call.keywords) or _test_code(ctx, call):
                continue
            hits.append((call, kw))
        if not hits or not imports_lightning(ctx, ctx.tree):
            return
        for call, kw in hits:
            yield ctx.finding(
                self, kw.value,
                "`val_check_interval=1` is an int, which Lightning counts in training batches: the whole "
                "validation loop runs after EVERY training batch (an epoch of N batches runs N validation "
                "passes), not once per epoch as the float `1.0` does. Write `val_check_interval=1.0` (the "
                "default) or use `check_val_every_n_epoch`",
                evidence=[ctx.evidence(call, "the Trainer that receives it")])
