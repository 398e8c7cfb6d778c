"""PF329 scalar-metric-to-gather-for-metrics: a batch metric already reduced to a 0-d tensor on each rank,
handed to ``accelerator.gather_for_metrics``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_REDUCTIONS = ("mean", "sum", "nanmean", "nansum")


def _count(expr: ast.expr) -> bool:
    """A plain number: a literal, ``len(x)``, ``x.numel()`` / ``torch.numel(x)``, ``x.size(0)``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)):
        return True
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id == "len":
            return True
        if isinstance(func, ast.Attribute) and (func.attr == "numel" or (func.attr == "size" and expr.args)):
            return True
    return False


def _full_reduction(expr: ast.expr) -> bool:
    """``x.mean()`` / ``x.float().sum()`` / ``torch.mean(x)``: a reduction over every dimension
    (no ``dim``/axis argument, no ``keepdim``), which leaves a 0-d tensor; also such a reduction divided
    or scaled by a plain number (``(pred == y).sum() / len(y)``)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Div, ast.Mult, ast.FloorDiv)):
        return (_full_reduction(expr.left) and (_count(expr.right) or _full_reduction(expr.right))) or (
            _count(expr.left) and _full_reduction(expr.right))
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Attribute):
        return False
    if expr.func.attr in ("tensor", "as_tensor") and isinstance(expr.func.value, ast.Name) \
            and expr.func.value.id == "torch" and len(expr.args) == 1:
        # ``torch.tensor(batch.numel(), device=...)``: a per-rank count wrapped in a 0-d tensor
        return _count(expr.args[0]) or _full_reduction(expr.args[0])
    if expr.func.attr not in _REDUCTIONS or expr.keywords:
        return False
    owner = expr.func.value
    if isinstance(owner, ast.Name) and owner.id == "torch":
        return len(expr.args) == 1  # torch.mean(x)
    return not expr.args  # x.mean()


def _last_value(scope: ast.AST, name: str, before: int) -> Optional[ast.Assign]:
    """The last plain ``name = value`` of ``scope`` before line ``before`` (None when the name is also
    assigned another way in the scope: augmented, a loop target, a tuple)."""
    found: Optional[ast.Assign] = None
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno < before:
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name:
                if found is None or node.lineno > found.lineno:
                    found = node
            elif any(isinstance(t, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Name) and e.id == name
                                                                  for e in t.elts) for t in node.targets):
                return None
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) and isinstance(
                getattr(node, "target", None), ast.Name) and node.target.id == name:  # type: ignore[attr-defined]
            return None
    return found


def _reduced_value(ctx: FileContext, call: ast.Call, arg: ast.expr) -> Optional[ast.expr]:
    """The full reduction ``arg`` is (inline, or the name's last plain assignment before ``call``)."""
    if _full_reduction(arg):
        return arg
    if isinstance(arg, ast.Name):
        scope = ctx.enclosing_function(call) or ctx.tree
        assign = _last_value(scope, arg.id, call.lineno)
        if assign is not None and _full_reduction(assign.value):
            return assign.value
    return None


@register
class ScalarMetricToGatherForMetrics(Rule):
    code = "PF329"
    name = "scalar-metric-to-gather-for-metrics"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    needs_text = ("gather_for_metrics",)
    summary = ("A batch metric reduced to a 0-d tensor on each rank (`acc = (...).mean()`) is handed to "
               "`gather_for_metrics`: the padding of the last batch can no longer be dropped per sample")
    explanation = """
## What it finds

`accelerator.gather_for_metrics(x)` where `x` is a per-batch value already reduced over all its
dimensions on each rank: `x = (pred == labels).float().mean()`, `x = correct.sum()`,
`x = torch.mean(scores)`, `x = (pred == y).sum() / torch.numel(pred)`, a per-rank count
`x = torch.tensor(batch.numel())`, assigned just before in the same function (or passed inline);
also such a value among a tuple handed to one gather (`gather_for_metrics((hits, count))`,
accelerate issue 1674: a ratio of per-batch counts that is wrong on uneven batches).

## Why it matters

`gather_for_metrics` exists to drop the samples Accelerate duplicates so that every rank gets a
full last batch: on the last batch it slices the gathered tensor to the number of real samples
left (`gradient_state.remainder`) along dimension 0. A 0-d value is gathered into a
`(num_processes,)` tensor, one entry per **rank**, so that slice keeps the first `remainder`
ranks' values and drops the others, and the duplicated samples stay folded into every rank's mean;
each rank's mean also weighs the same whatever number of real samples it held. The reported
metric (often the one that picks the checkpoint) is biased whenever the evaluation set does not
divide evenly across ranks (TRL issue 7010, a reward model's eval accuracy).

## How to fix it

Gather per-example values (`accelerator.gather_for_metrics(per_example_correct)`, or the
predictions and labels) and reduce after gathering (`torch.cat(gathered).mean()`). For a loss,
repeat it per sample first (`loss.repeat(batch_size)`, the transformers `no_trainer` examples).

## When preflight stays silent

* The reduction keeps a dimension (`x.mean(dim=-1)`, `x.sum(1)`, `keepdim=True`), or the value
  is per example.
* The value comes from elsewhere (a model output such as `outputs.loss`, a function's result):
  its shape cannot be read.
* `accelerator.gather(x)`: it makes no claim to drop the padding (PF414 / PF492 cover other gathers).
"""
    bad_examples = examples("preflight.rules.code._pf329_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf329_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "gather_for_metrics"
                    and call.args):
                continue
            first = call.args[0]
            # a tuple/list of values is gathered (and truncated) element by element
            items = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
            arg, reduced = first, None
            for item in items:
                reduced = _reduced_value(ctx, call, item)
                if reduced is not None:
                    arg = item
                    break
            if reduced is None:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(arg)}` is reduced to one number per rank (`{ast.unparse(reduced)}`, line "
                f"{reduced.lineno}) before `gather_for_metrics`, which drops the samples Accelerate duplicates "
                "to pad the last batch by slicing the gathered tensor along its first dimension: here that "
                "dimension is the ranks, so the last batch keeps only some ranks' values while the duplicates "
                "stay folded into each mean, and every rank weighs the same whatever its real sample count. "
                "The reported metric is biased; gather per-example values (or predictions and labels) and "
                "reduce after gathering",
                evidence=[ctx.evidence(reduced, "reduced over every dimension")])
