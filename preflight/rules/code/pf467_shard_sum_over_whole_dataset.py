"""PF467 shard-sum-over-whole-dataset: a sum over one rank's ``DistributedSampler`` shard divided by the
size of the whole dataset, never reduced across ranks."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._samplers import bound_call, distributed_sampler


def _dataset_len(node: ast.AST, loader: str, dataset: Optional[str]) -> bool:
    """``len(loader.dataset)`` or ``len(<the dataset the loader wraps>)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
            and len(node.args) == 1):
        return False
    arg = ast.unparse(node.args[0])
    return arg == f"{loader}.dataset" or (dataset is not None and arg == dataset)


def _summed_over(fn: ast.AST, name: str, loader: str) -> Optional[ast.AugAssign]:
    """``name += ...`` inside a ``for ... in loader`` loop of ``fn``."""
    for loop in ast.walk(fn):
        if isinstance(loop, ast.For) and ast.unparse(loop.iter) in (loader, f"enumerate({loader})"):
            for node in ast.walk(loop):
                if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(
                        node.target, ast.Name) and node.target.id == name:
                    return node
    return None


def _reduced(fn: ast.AST, name: str, start: int, end: int) -> bool:
    """``name`` reaches a collective (``all_reduce``, ``all_gather``, ``reduce``, ``gather``) in ``fn``, or
    any collective runs between the sum (line ``start``) and the division (line ``end``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            callee = ast.unparse(node.func).lower()
            if not any(w in callee for w in ("reduce", "gather")):
                continue
            if start < node.lineno < end or any(
                    isinstance(n, ast.Name) and n.id == name for a in node.args for n in ast.walk(a)):
                return True
    return False


@register
class ShardSumOverWholeDataset(Rule):
    code = "PF467"
    needs_text = ("DistributedSampler",)
    name = "shard-sum-over-whole-dataset"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("pytorch",)
    summary = ("A sum over one rank's `DistributedSampler` shard divided by the size of the whole dataset: "
               "the reported mean is world_size times too small")
    explanation = """
## What it finds

In one function: a `DataLoader` built with a `DistributedSampler`, a running total
summed over that loader (`total_loss += float(loss) * batch_size` inside `for ... in
train_loader`), and `total_loss / len(train_loader.dataset)` (or the dataset the loader
wraps), with no `all_reduce`/`all_gather` of the total in the function.

## Why it matters

Each rank iterates only its shard, 1/world_size of the dataset, so its total covers
1/world_size of the examples, but it is divided by the size of the whole dataset: the
epoch loss or accuracy rank 0 prints is world_size times too small (PyG PR 6913: 0.0249
with 4 GPUs against 0.0985 with one). Learning-rate schedules, early stopping or model
selection driven by that number act on a wrong value; the training itself is unaffected.

## How to fix it

Divide by the number of examples this rank saw (`len(sampler)`, or count them), or
`all_reduce` the total (and the count) across ranks before dividing.

## When preflight stays silent

* The total is passed to an `all_reduce`/`all_gather` (or a helper named `*reduce*`)
  in the function, or any such collective runs between the sum and the division, or
  the loader has no `DistributedSampler` built in the function.
* The divisor is not the dataset's length (`len(sampler)`, a counter).
"""
    bad_examples = examples("preflight.rules.code._pf467_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf467_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for div in ctx.nodes(ast.BinOp):
            if not (isinstance(div.op, ast.Div) and isinstance(div.left, ast.Name)
                    and isinstance(div.right, ast.Call)):
                continue
            fn = ctx.enclosing_function(div)
            if fn is None:
                continue
            right = div.right
            if not (isinstance(right.func, ast.Name) and right.func.id == "len" and len(right.args) == 1):
                continue
            arg = right.args[0]
            loader_name = arg.value.id if (isinstance(arg, ast.Attribute) and arg.attr == "dataset"
                                           and isinstance(arg.value, ast.Name)) else None
            candidates = [loader_name] if loader_name else [
                a.targets[0].id for a in ast.walk(fn) if isinstance(a, ast.Assign) and len(a.targets) == 1
                and isinstance(a.targets[0], ast.Name) and isinstance(a.value, ast.Call)
                and ast.unparse(a.value.func).split(".")[-1] == "DataLoader"]
            for loader in candidates:
                built = bound_call(fn, loader, "DataLoader")
                if built is None or distributed_sampler(fn, built) is None:
                    continue
                dataset = ast.unparse(built.args[0]) if built.args else None
                if not _dataset_len(right, loader, dataset):
                    continue
                total = div.left.id
                summed = _summed_over(fn, total, loader)
                if summed is None or _reduced(fn, total, summed.lineno, div.lineno):
                    continue
                yield ctx.finding(
                    self, div,
                    f"`{ast.unparse(div)}`: `{total}` sums over this rank's `DistributedSampler` shard of "
                    f"`{loader}` (1/world_size of the data) but is divided by the size of the whole dataset, and "
                    "is never reduced across ranks: the value is world_size times too small. Divide by the "
                    f"examples this rank saw (`len({loader}.sampler)`), or `all_reduce` the total first",
                    evidence=[ctx.evidence(summed, "summed over this rank's shard only")])
                break
