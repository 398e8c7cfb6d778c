"""PF170 step-schedule-sized-in-samples: a schedule counted in optimizer steps (``OneCycleLR``'s
``steps_per_epoch``/``total_steps``, the transformers ``num_training_steps``) is sized with
``len(dataset)``, the number of samples, where the dataset is batched by a ``DataLoader`` with a
batch size: the schedule is batch_size times too long."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import dotted_text, kwarg, literal
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.plan._schedule_support import BUILDERS

# length arguments counted in optimizer steps: builder -> ((keyword, position), ...)
_LENGTHS: dict[str, tuple[tuple[str, int], ...]] = {name: ((key, pos),) for name, (key, pos) in BUILDERS.items() if name != "CosineAnnealingLR"}
_LENGTHS["OneCycleLR"] = (("total_steps", 2), ("steps_per_epoch", 4))
# callees whose result rebinds a dataset name to batches (``ds = DataLoader(ds, ...)``, ``accelerator.prepare``)
_BATCHING_WORDS = ("loader", "prepare", "batch")


def _batched_datasets(ctx: FileContext) -> dict[str, ast.Call]:
    """``name``/``self.attr`` of each dataset a ``DataLoader(...)`` of the file batches with a batch size
    that is not a literal 1 or None (the keyword, or the second positional argument), and no
    ``batch_sampler``: dataset text -> the loader call."""
    out: dict[str, ast.Call] = {}
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "DataLoader" or kwarg(call, "batch_sampler") is not None:
            continue
        dataset = call.args[0] if call.args else kwarg(call, "dataset")
        size = kwarg(call, "batch_size")
        if size is None and len(call.args) > 1:
            size = call.args[1]
        text = dotted_text(dataset)
        if text is None or size is None or literal(ctx, size) in (1, None):
            continue
        out.setdefault(text, call)
    return out


def _rebound_to_batches(ctx: FileContext) -> set[str]:
    """Names assigned the result of a loader-like call anywhere in the file (then ``len`` counts batches)."""
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        value = assign.value
        if not (isinstance(value, ast.Call) and any(w in call_last(value).lower() for w in _BATCHING_WORDS)):
            continue
        for target in assign.targets:
            for node in ast.walk(target):
                text = dotted_text(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
                if text is not None:
                    out.add(text)
    return out


def _single_values(ctx: FileContext) -> dict[str, ast.expr]:
    """``name``/``self.attr`` bound exactly once in the file by a plain assignment -> its value."""
    values: dict[str, ast.expr] = {}
    counts: dict[str, int] = {}
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            text = dotted_text(target)
            if text is not None:
                values[text] = node.value
                counts[text] = counts.get(text, 0) + 1
    return {k: v for k, v in values.items() if counts[k] == 1}


def _expanded(expr: ast.expr, values: dict[str, ast.expr], depth: int = 0) -> Iterator[ast.AST]:
    """The nodes of ``expr`` and of the single values its names are bound to (two levels)."""
    for node in ast.walk(expr):
        yield node
        text = dotted_text(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        if text is not None and text in values and depth < 2 and values[text] is not expr:
            yield from _expanded(values[text], values, depth + 1)


def _lengths(call: ast.Call) -> Iterator[ast.expr]:
    for key, pos in _LENGTHS[call_last(call)]:
        value = kwarg(call, key)
        if value is None and 0 <= pos < len(call.args):
            value = call.args[pos]
        if value is not None:
            yield value


def _sample_count(nodes: list[ast.AST], datasets: dict[str, ast.Call]) -> Optional[tuple[ast.Call, str]]:
    """The ``len(<dataset>)`` among ``nodes`` when nothing there divides it (by a batch size); else None."""
    if any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv)) for n in nodes):
        return None
    if any(isinstance(n, ast.Call) and call_last(n) in ("ceil", "floor") for n in nodes):
        return None
    for node in nodes:
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
                and len(node.args) == 1):
            text = dotted_text(node.args[0])
            if text in datasets:
                return node, text
    return None


@register
class StepScheduleSizedInSamples(Rule):
    code = "PF170"
    name = "step-schedule-sized-in-samples"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("a schedule counted in optimizer steps (`OneCycleLR(steps_per_epoch=...)`, `num_training_steps`) "
               "is sized with `len(dataset)`, a number of samples, while a DataLoader batches that dataset: "
               "the schedule is batch_size times too long")
    needs_text = ("DataLoader",)
    explanation = """
## What it finds

A step-count schedule (`OneCycleLR` with `steps_per_epoch=` or `total_steps=`,
`get_linear_schedule_with_warmup` and the other transformers schedules, `get_scheduler`)
whose length is computed from `len(ds)` (directly, or through names bound once in the file),
where `ds` is the dataset a `DataLoader(ds, batch_size=...)` of the same file batches, and
nothing in the length divides it (no `/`, `//`, `ceil`).

## Why it matters

`len(dataset)` counts samples; the optimizer (and the schedule) steps once per batch, so the
schedule is `batch_size` times longer than the run. A one-cycle schedule stays in its warm-up
for the whole run and never anneals; a linear decay barely leaves the peak learning rate.
Lightning issue 2643 ("Trouble tracing why convergence is slower in Lightning"): the port used
`steps_per_epoch=int(len(self.train_dataset))` where the plain PyTorch version used
`len(train_loader)`; switching to the loader's length fixed the slow convergence.

## How to fix it

Size it in batches: `steps_per_epoch=len(train_loader)` (in Lightning
`self.trainer.estimated_stepping_batches` as `total_steps`), or divide by the batch size
(`math.ceil(len(ds) / batch_size)`), and by the gradient accumulation when there is one.

## When preflight stays silent

* The length divides the sample count (`len(ds) // batch_size`) or uses `len(loader)`.
* The loader has no batch size, or a literal `batch_size=1` or `None` (then samples are steps),
  or a `batch_sampler`.
* The dataset name is rebound to a loader (`ds = DataLoader(ds, ...)`, `accelerator.prepare`):
  then `len(ds)` counts batches.
"""
    bad_examples = examples("preflight.rules.code._pf170_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf170_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        schedules = [c for c in ctx.nodes(ast.Call) if call_last(c) in _LENGTHS]
        if not schedules:
            return
        datasets = _batched_datasets(ctx)
        for name in _rebound_to_batches(ctx):
            datasets.pop(name, None)
        if not datasets:
            return
        values = _single_values(ctx)
        for call in schedules:
            for length in _lengths(call):
                found = _sample_count(list(_expanded(length, values)), datasets)
                if found is None:
                    continue
                count, text = found
                yield ctx.finding(
                    self, call,
                    f"`{call_last(call)}` is sized with `{ast.unparse(count)}`, the number of samples, but "
                    f"`{text}` is batched by a DataLoader and the optimizer steps once per batch: the schedule is "
                    "batch_size times too long (a one-cycle never leaves its warm-up, a decay barely starts). "
                    "Size it in batches: `len(<loader>)` or `self.trainer.estimated_stepping_batches`",
                    evidence=[ctx.evidence(datasets[text], f"`{text}` is batched here")])
                break
