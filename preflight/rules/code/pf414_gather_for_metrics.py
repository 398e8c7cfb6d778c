"""PF414 gather-for-metrics: ``accelerator.gather`` of evaluation outputs (duplicated last-batch samples)."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.launch_world import single_process_launch
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerator_names,
    calls,
    is_accelerator_receiver,
)
from preflight.rules.base import Rule, examples


def _names_the_dataset(node: ast.expr) -> bool:
    """``loader.dataset`` anywhere in the bound, or ``len(x)`` of a name/attribute that names a
    dataset (``len(eval_dataset)``, ``len(self.test_ds)``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "dataset":
            return True
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "len"
                and len(sub.args) == 1 and isinstance(sub.args[0], (ast.Name, ast.Attribute))):
            arg = sub.args[0]
            last = (arg.id if isinstance(arg, ast.Name) else arg.attr).lower()
            if "dataset" in last or last.endswith("_ds") or last in ("ds", "data"):
                return True
    return False


def _manual_truncation(ctx: FileContext) -> bool:
    """The pre-``gather_for_metrics`` recipe: the gathered outputs sliced to the dataset's length
    (``preds[: len(loader.dataset) - samples_seen]``, ``losses[: len(eval_dataset)]``)."""
    for node in ctx.nodes(ast.Subscript):
        if isinstance(node.slice, ast.Slice) and node.slice.upper is not None \
                and _names_the_dataset(node.slice.upper):
            return True
    return any(isinstance(n, ast.Name) and n.id == "samples_seen" for n in ctx.nodes(ast.Name))


_DATA_WORDS = ("loader", "eval", "test", "valid", "val_", "dataset", "batches")
_GATHER_OBJECT = frozenset({"accelerate.utils.gather_object", "accelerate.utils.operations.gather_object"})
_ITER_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "track"})


def _prepared(ctx: FileContext) -> set[str]:
    """Names bound to the outputs of ``accelerator.prepare(...)`` (``model, loader = accelerator.prepare(...)``)."""
    names = accelerator_names(ctx)
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        value = assign.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "prepare"
                and is_accelerator_receiver(value.func.value, names)):
            continue
        for target in assign.targets:
            for elt in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                if isinstance(elt, (ast.Name, ast.Attribute)):
                    out.add(ast.unparse(elt))
    return out


def _loop_source(node: ast.expr) -> str:
    """The iterated object under ``enumerate(...)``/``tqdm(...)`` wrappers."""
    while isinstance(node, ast.Call) and node.args:
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last not in _ITER_WRAPPERS:
            break
        node = node.args[0]
    return ast.unparse(node)


_EXTREMA = ("min", "max", "amin", "amax")


def _extremum_use(ctx: FileContext, node: ast.AST) -> bool:
    """``node.max()`` / ``max(node)``: a repeated sample changes no minimum or maximum."""
    parent = ctx.parent(node)
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _EXTREMA:
        return True
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("min", "max") \
        and node in parent.args


def _duplicate_free_use(ctx: FileContext, call: ast.Call) -> bool:
    """The gathered tensor only feeds a minimum or maximum (StyleTTS2 gathers the lengths of every
    process "for balanced load"), or is never read: the padded duplicates change nothing."""
    if _extremum_use(ctx, call):
        return True
    assign = ctx.parent(call)
    if not (isinstance(assign, ast.Assign) and assign.value is call and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)):
        return False
    name = assign.targets[0].id
    scope = ctx.enclosing(call, ast.FunctionDef, ast.AsyncFunctionDef) or ctx.tree
    reads = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return all(_extremum_use(ctx, n) for n in reads)


@register
class GatherForMetrics(Rule):
    code = "PF414"
    needs_text = ('gather',)
    multi_process_only = True
    name = "gather-for-metrics"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "Evaluation outputs are collected with `accelerator.gather` instead of `gather_for_metrics`"
    explanation = """
## What it finds

`accelerator.gather(...)` called in a loop that runs no backward pass (an
evaluation loop), where the gathered predictions or labels feed a metric.

## Why it matters

A prepared evaluation loader pads the last batch on every process so that all
ranks see the same number of batches: it repeats samples from the start of the
dataset. `gather` returns those duplicates too, so accuracy, F1 and the number
of samples counted are wrong (10,167 samples for a 10,000-image test set in
accelerate issue 226). `gather_for_metrics` drops the duplicates of the last batch.

## How to fix it

Use `accelerator.gather_for_metrics((predictions, labels))`.

The same for `gather_object(...)` (`accelerate.utils.gather_object` or
`accelerator.gather_object`) of per-sample Python objects (detection dicts, decoded
texts) in a loop over a loader the file prepared with `accelerator.prepare`
(accelerate issue 684: COCO mAP over Faster R-CNN outputs); its duplicates are dropped by
`accelerator.gather_for_metrics(obj, use_gather_object=True)`.

## When preflight stays silent

* Every launch script beside the file, or every launch line `preflight audit` is given
  (`preflight audit train.py -- accelerate launch --num_processes 1 train.py`), starts it as one
  process (`--num_processes 1`, `torchrun --nproc_per_node 1`): nothing is padded.
* The file truncates the gathered outputs by hand (a slice `[:n]` bounded by
  `len(loader.dataset)` or `len(eval_dataset)`: the `samples_seen` recipe and the
  `losses[: len(eval_dataset)]` recipe from before `gather_for_metrics`).
* The gather runs in a training loop (a loop with a backward pass).
* The gathered tensor only feeds a minimum or maximum (`lengths.max()`, `min(...)`: a repeated
  sample changes neither), or is never read.
* `gather_object` of a loop over anything but a loader the file passes through
  `accelerator.prepare` (prompts split with `split_between_processes`, a plain list).
"""
    bad_examples = examples("preflight.rules.code._pf414_examples", "PF414_BAD")
    good_examples = examples("preflight.rules.code._pf414_examples", "PF414_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        gathers = accelerator_calls(ctx, "gather")
        objects = accelerator_calls(ctx, "gather_object") + [c for c, q in calls(ctx) if q in _GATHER_OBJECT]
        if not (gathers or objects) or _manual_truncation(ctx):
            return
        if single_process_launch(ctx):
            return  # `accelerate launch --num_processes 1`: one process, no loader shard pads anything
        yield from self._gather_objects(ctx, objects)
        for call in gathers:
            loop = ctx.enclosing(call, ast.For, ast.AsyncFor)
            if not isinstance(loop, (ast.For, ast.AsyncFor)) or not any(w in ast.unparse(loop.iter).lower() for w in _DATA_WORDS):
                continue  # not a loop over batches of data (metric names, ranks, a range)
            if any(isinstance(n, ast.Attribute) and n.attr in ("backward", "manual_backward", "step")
                   for n in ast.walk(loop)) or any(
                    isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and ("step" in n.func.id or "train" in n.func.id)
                    for n in ast.walk(loop)):
                continue  # a training loop (a backward, a step, or a helper that trains)
            if _duplicate_free_use(ctx, call):
                continue
            yield ctx.finding(
                self, call,
                "`accelerator.gather` in an evaluation loop: the prepared loader pads the last batch with "
                "repeated samples on every process and `gather` keeps them, so the metric counts some samples "
                "twice. Use `accelerator.gather_for_metrics(...)`, which drops them",
                evidence=[ctx.evidence(loop, "the evaluation loop (no backward pass)")])

    def _gather_objects(self, ctx: FileContext, objects: list[ast.Call]) -> Iterable[Finding]:
        """``gather_object(...)`` in a loop over a loader the file prepared with ``accelerator.prepare``
        (its padded last batch), in a loop without a backward pass."""
        if not objects:
            return
        prepared = _prepared(ctx)
        for call in objects:
            loop = ctx.enclosing(call, ast.For, ast.AsyncFor)
            if not isinstance(loop, (ast.For, ast.AsyncFor)) or _loop_source(loop.iter) not in prepared:
                continue
            if any(isinstance(n, ast.Attribute) and n.attr in ("backward", "manual_backward", "step")
                   for n in ast.walk(loop)):
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}` of outputs of `{_loop_source(loop.iter)}`, a loader prepared by "
                "Accelerate: its last batch is padded with repeated samples on every process (even_batches) and "
                "`gather_object` keeps them, so those samples are counted twice. Use "
                "`accelerator.gather_for_metrics(obj, use_gather_object=True)`, which drops them",
                evidence=[ctx.evidence(loop, "the evaluation loop over the prepared loader")])
