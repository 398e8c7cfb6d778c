"""PF128 accumulate-around-batch-loop: ``with accelerator.accumulate(model):`` entered once around the whole
batch loop; Accelerate decides whether to sync and step only when the context is entered."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, is_accelerator_receiver
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_DATA = re.compile(r"loader|dataset|batches|data\b|train_data", re.IGNORECASE)


def _backward(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in ast.walk(node))


def _iterable(loop: ast.For) -> ast.AST:
    it = loop.iter
    while isinstance(it, ast.Call) and call_last(it) in ("enumerate", "tqdm", "iter", "zip") and it.args:
        it = it.args[0]
    return it


@register
class AccumulateAroundBatchLoop(Rule):
    code = "PF128"
    name = "accumulate-around-batch-loop"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    needs_text = ("accumulate",)
    summary = "`with accelerator.accumulate(model):` wraps the whole batch loop: the sync/step decision is taken once per entry, not once per batch"
    explanation = """
## What it finds

A `with accelerator.accumulate(model):` block that contains the loop over the training batches
(a `for` over a data loader whose body calls `backward`), instead of sitting inside that loop.

## Why it matters

`Accelerator.accumulate` decides whether this step synchronises gradients and lets the
optimizer step when the context is entered (`_do_sync()` counts one step per entry and sets
`sync_gradients`); the prepared optimizer and scheduler skip their `step()` while
`sync_gradients` is False. Entered once per epoch, the decision is taken once per epoch: with
`gradient_accumulation_steps=4` the whole epoch's batches run without an optimizer step for three
epochs out of four (or every batch steps, never accumulating), and the DDP gradient sync is off
for the whole loop. The docstring of the time showed this shape and was fixed
(huggingface/accelerate#1211: "The _do_sync method is called only when the context manager is
entered, so it needs to go inside the loop"; "I was wondering why my model wasn't converging
well!").

## How to fix it

Put the `with accelerator.accumulate(model):` inside the batch loop, around one batch's forward,
backward and step.

## When preflight stays silent

* The `with` block sits inside the batch loop (also when it loops over the micro-chunks of one
  batch inside it).
* The loop inside the block does not call `backward` or does not iterate a data loader
  (a name with `loader`, `dataset`, `data` or `batches` in it, or a prepared object).
"""
    bad_examples = examples("preflight.rules.code._pf128_examples", "PF128_BAD")
    good_examples = examples("preflight.rules.code._pf128_examples", "PF128_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = accelerator_names(ctx)
        prepared = self._prepared(ctx)
        for node in ctx.nodes(ast.With):
            call = next((i.context_expr for i in node.items if isinstance(i.context_expr, ast.Call)
                         and isinstance(i.context_expr.func, ast.Attribute)
                         and i.context_expr.func.attr == "accumulate"
                         and is_accelerator_receiver(i.context_expr.func.value, names)), None)
            if call is None:
                continue
            loop = self._batch_loop(node, prepared)
            if loop is None:
                continue
            yield ctx.finding(
                self, node,
                f"`with {ast.unparse(call)}:` is entered once around the whole loop over "
                f"`{ast.unparse(_iterable(loop))}` (line {loop.lineno}): accumulate() decides whether to sync "
                f"gradients and let the optimizer step only when it is entered, so the decision is taken once "
                f"for all these batches instead of once per batch and gradient accumulation does not happen as "
                f"configured. Move the `with` block inside the batch loop",
                evidence=[ctx.evidence(loop, "the batch loop that should contain the `with` block")])

    @staticmethod
    def _prepared(ctx: FileContext) -> set[str]:
        """Names bound from ``accelerator.prepare(...)``."""
        out: set[str] = set()
        for node in ctx.nodes(ast.Assign):
            if isinstance(node.value, ast.Call) and call_last(node.value) == "prepare":
                for tgt in node.targets:
                    for n in ast.walk(tgt):
                        if isinstance(n, (ast.Name, ast.Attribute)):
                            out.add(ast.unparse(n))
        return out

    @staticmethod
    def _batch_loop(node: ast.With, prepared: set[str]) -> Optional[ast.For]:
        for stmt in node.body:
            for loop in ast.walk(stmt):
                if isinstance(loop, ast.For) and _backward(loop):
                    text = ast.unparse(_iterable(loop))
                    if text in prepared or _DATA.search(text):
                        return loop
        return None
