"""PF566 gather-zero-dim-old-accelerate: ``accelerator.gather`` of a 0-d tensor (a scalar loss) with
accelerate pinned below 0.5.0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# accelerate PR 152 ("Fix gather for 0d tensor", commit 545cddb5) adds `tensor.clone()[None]` for 0-d
# tensors; first released in v0.5.0
_FIXED = (0, 5, 0)


def _scalar_expr(node: ast.AST) -> bool:
    """``outputs.loss``, ``x.mean()``/``x.sum()`` without a dim: a 0-d tensor."""
    if isinstance(node, ast.Attribute) and node.attr == "loss":
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in ("mean", "sum") and not node.args and not node.keywords


def _zero_dim(arg: ast.AST, fn: Optional[ast.AST], line: int) -> Optional[ast.AST]:
    """The 0-d expression ``arg`` is (directly, or a name the enclosing function last bound to one
    before ``line``)."""
    if _scalar_expr(arg):
        return arg
    if not isinstance(arg, ast.Name) or fn is None:
        return None
    last: Optional[ast.Assign] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and node.lineno < line and any(
                isinstance(t, ast.Name) and t.id == arg.id for t in node.targets) \
                and (last is None or node.lineno > last.lineno):
            last = node
    if last is not None and len(last.targets) == 1 and _scalar_expr(last.value):
        return last.value
    return None


@register
class GatherZeroDimOldAccelerate(PlanRule):
    code = "PF566"
    name = "gather-zero-dim-old-accelerate"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = "`accelerator.gather` of a 0-d tensor (a scalar loss) with accelerate pinned below 0.5.0"
    explanation = """
## What it finds

`accelerator.gather(loss)` where `loss` is a 0-dimensional tensor (`outputs.loss`, or a
name bound to it, or to `x.mean()`/`x.sum()`), in a project that pins accelerate to a
release before 0.5.0 (`accelerate==0.4.0`).

## Why it matters

Before 0.5.0 `gather` all-gathers the tensor and concatenates the pieces along dimension
0 (`_gpu_gather`: `torch.distributed.all_gather(...)` then `torch.cat(output_tensors,
dim=0)`), and a 0-d tensor has no dimension 0: the multi-GPU evaluation fails ("zero-
dimensional tensor cannot be concatenated") or hangs (transformers issue 13247, the
`run_mlm_no_trainer` evaluation). accelerate PR 152 ("Fix gather for 0d tensor", first in
0.5.0) adds a dimension to 0-d tensors first.

## How to fix it

Gather `loss.repeat(per_device_eval_batch_size)` (one copy per sample, which also makes the
mean exact) and truncate to the dataset length, as the later example scripts do; or
upgrade accelerate to 0.5.0 or later.

## When preflight stays silent

* accelerate is not pinned, or the pin (or lower bound) is 0.5.0 or later.
* The gathered value is not recognisably 0-d (`loss.repeat(n)`, `loss[None]`, predictions).
"""
    bad_examples = examples("preflight.rules.plan._pf566_examples", "PF566_BAD")
    good_examples = examples("preflight.rules.plan._pf566_examples", "PF566_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = None
        for script in pctx.scripts:
            if "gather" not in (script.text if script.text is not None else script.source.text):
                continue
            if found is None:
                found = pctx.version("accelerate", script)
                if found is None or found.how != "pinned" or found.at_least(*_FIXED):
                    return
            fctx = pctx.file_context(script)
            for call in fctx.nodes(ast.Call):
                if not (isinstance(call.func, ast.Attribute) and call.func.attr == "gather" and len(call.args) == 1):
                    continue
                if "accelerator" not in ast.unparse(call.func.value).lower():
                    continue
                scalar = _zero_dim(call.args[0], fctx.enclosing_function(call), call.lineno)
                if scalar is None:
                    continue
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)}` gathers a 0-d tensor (`{ast.unparse(scalar)}`) under {found.describe()}: "
                    "before accelerate 0.5.0 gather concatenates the per-process pieces along dimension 0, which a "
                    "0-d tensor does not have, so the multi-process evaluation fails or hangs. Gather "
                    "`loss.repeat(batch_size)` (and truncate to the dataset length), or upgrade accelerate")
