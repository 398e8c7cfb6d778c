"""PF492 gather-of-per-batch-padded-tokens: ``accelerator.gather`` of token-level tensors padded per
batch by the collator, so each process holds a different sequence length."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, kwarg, target_text
from preflight.rules.base import Rule, examples

# collators that pad every batch to its own longest sequence, labels included
_TOKEN_COLLATORS = frozenset({"DataCollatorForTokenClassification", "DataCollatorForSeq2Seq"})
_GATHERS = ("gather", "gather_for_metrics")
_TOKEN_KEYS = frozenset({"labels", "input_ids", "attention_mask"})


def _name_of(node: ast.AST) -> str:
    f = node.func if isinstance(node, ast.Call) else node
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _dynamic_collator(ctx: FileContext) -> Optional[ast.Call]:
    """A token-level collator built without ``padding="max_length"``."""
    for call in ctx.nodes(ast.Call):
        if _name_of(call) in _TOKEN_COLLATORS:
            padding = kwarg(call, "padding")
            if isinstance(padding, ast.Constant) and padding.value == "max_length":
                continue
            return call
    return None


def _token_level(expr: ast.AST, bound: dict[str, ast.expr], depth: int = 0) -> bool:
    """``batch["labels"]``, ``outputs.logits.argmax(dim=-1)`` (one label per token), or a name bound
    to one in the function."""
    if isinstance(expr, ast.Name) and expr.id in bound and depth < 3:
        return _token_level(bound[expr.id], bound, depth + 1)
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) \
            and expr.slice.value in _TOKEN_KEYS:
        return True
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "argmax":
        base = expr.func.value
        return (isinstance(base, ast.Attribute) and base.attr == "logits") or (
            isinstance(base, ast.Subscript) and isinstance(base.slice, ast.Constant) and base.slice.value == "logits")
    return False


@register
class GatherOfPerBatchPaddedTokens(Rule):
    code = "PF492"
    needs_text = ("DataCollatorForTokenClassification", "DataCollatorForSeq2Seq")
    name = "gather-of-per-batch-padded-tokens"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = "`accelerator.gather` of token-level tensors that the collator pads per batch: lengths differ across processes"
    explanation = """
## What it finds

`accelerator.gather(x)` / `gather_for_metrics(x)` where `x` is per token
(`batch["labels"]`, `batch["input_ids"]`, `outputs.logits.argmax(dim=-1)`, or a name
bound to one), in a file whose loaders use `DataCollatorForTokenClassification` or
`DataCollatorForSeq2Seq` without `padding="max_length"`, and with no
`accelerator.pad_across_processes` call.

## Why it matters

Those collators pad every batch to its own longest sequence, so each process holds
tensors of a different length. `gather` is an all-gather of equal-sized tensors:
with different shapes it hangs or fails (accelerate issue 167, token classification
evaluation "gets stuck" in `gather`).

## How to fix it

Pad across processes first:
`predictions = accelerator.pad_across_processes(predictions, dim=1, pad_index=-100)`
(the same for the labels), then gather; or pad to a fixed length in the collator
(`padding="max_length"`).

## When preflight stays silent

* The file calls `pad_across_processes`, or the collator pads to `max_length`.
* The gathered tensor has one value per example (sequence-classification logits'
  `argmax`, a loss), or is not read from the batch/logits in the function.
* Sequence-classification collators (`DataCollatorWithPadding`): their labels are
  per example.
"""
    bad_examples = examples("preflight.rules.code._pf492_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf492_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        gathers = [c for m in _GATHERS for c in accelerator_calls(ctx, m)]
        if not gathers or accelerator_calls(ctx, "pad_across_processes"):
            return
        collator = _dynamic_collator(ctx)
        if collator is None:
            return
        bound_by_fn: dict[int, dict[str, ast.expr]] = {}
        for call in sorted(gathers, key=lambda c: (c.lineno, c.col_offset)):
            if not call.args:
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            bound = bound_by_fn.get(id(fn))
            if bound is None:
                bound = bound_by_fn[id(fn)] = {}
                counts: dict[str, int] = {}
                for node in ast.walk(fn):
                    if isinstance(node, ast.Assign) and len(node.targets) == 1:
                        name = target_text(node.targets[0])
                        if name:
                            bound[name] = node.value
                            counts[name] = counts.get(name, 0) + 1
                bound_by_fn[id(fn)] = bound = {k: v for k, v in bound.items() if counts[k] == 1}
            arg = call.args[0]
            items = arg.elts if isinstance(arg, ast.Tuple) else [arg]
            if not any(_token_level(item, bound) for item in items):
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}(...)` gathers token-level tensors, but "
                f"`{_name_of(collator)}` pads each batch to its own longest sequence: the processes hold "
                "different lengths and the all-gather hangs or fails. Call "
                "`accelerator.pad_across_processes(x, dim=1, pad_index=-100)` on them first",
                evidence=[ctx.evidence(collator, "pads per batch here")])
