"""PF534 accumulate-around-batch-loop: ``with accelerator.accumulate(model):`` entered once around the
whole batch loop."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerators,
    has_unpacking,
    kwarg,
    literal,
)
from preflight.rules.base import Rule, examples

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _with_of(ctx: FileContext, call: ast.Call) -> Optional[ast.AST]:
    """The ``with`` statement whose item is ``call``."""
    item = ctx.parent(call)
    if isinstance(item, ast.withitem):
        stmt = ctx.parent(item)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            return stmt
    return None


def _walk_same_scope(nodes: list[ast.stmt]) -> Iterable[ast.AST]:
    """Every node under ``nodes`` that is not inside a nested function or class."""
    todo: list[ast.AST] = list(nodes)
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES):
                todo.append(child)


def _method_calls(nodes: list[ast.stmt]) -> set[str]:
    return {n.func.attr for n in _walk_same_scope(nodes)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}


def _stepping_loop(with_stmt: ast.AST) -> Optional[ast.AST]:
    """The first ``for``/``while`` loop in the block whose own body runs a backward pass and an
    optimizer step: a loop of training steps, not of micro-batches of one step."""
    body: list[ast.stmt] = getattr(with_stmt, "body", [])
    for node in _walk_same_scope(body):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            called = _method_calls(node.body)
            if "backward" in called and "step" in called:
                return node
    return None


def _window_is_one(ctx: FileContext) -> bool:
    """Every ``Accelerator(...)`` of the file has a window of 1 (none given, or a literal 1) and no
    plugin or ``**kwargs`` that could carry one. False when the file builds no Accelerator."""
    ctors = accelerators(ctx)
    if not ctors:
        return False
    for ctor in ctors:
        if has_unpacking(ctor) or kwarg(ctor, "gradient_accumulation_plugin") is not None \
                or kwarg(ctor, "deepspeed_plugin") is not None:
            return False
        window = kwarg(ctor, "gradient_accumulation_steps")
        if window is not None and literal(ctx, window) != 1:
            return False
    return not any(isinstance(n, ast.Attribute) and n.attr == "gradient_accumulation_steps"
                   and isinstance(n.ctx, ast.Store) for n in ctx.nodes(ast.Attribute))


@register
class AccumulateAroundBatchLoop(Rule):
    code = "PF534"
    needs_text = ("accumulate",)
    name = "accumulate-around-batch-loop"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "`with accelerator.accumulate(model):` is entered once around the whole batch loop, not once per batch"
    explanation = """
## What it finds

A `with accelerator.accumulate(model):` block whose body holds the loop of training steps: a
`for`/`while` loop that runs a backward pass and an optimizer step on every iteration, in a file
whose `Accelerator` can have a window above 1.

## Why it matters

`Accelerator.accumulate` decides whether the current step synchronizes gradients and really
steps the optimizer *when the block is entered*: it calls `self._do_sync()`, which increments
`self.step` and sets `sync_gradients = (self.step % num_steps == 0)`, then enters
`no_sync(model)` for the whole block when it is false (accelerate `src/accelerate/accelerator.py`,
`accumulate` and `_do_sync`). The prepared optimizer's `step()` and `zero_grad()` do nothing
while `sync_gradients` is false (`src/accelerate/optimizer.py`). Entered once around the batch
loop, the decision is taken once per epoch: with `gradient_accumulation_steps=4` three epochs in
four never step the optimizer and never clear its gradients, and the fourth steps on every batch
(accelerate PR 1211, which moved the block inside the loop in the docstring: "The _do_sync method
is called only when the context manager is entered, so it needs to go inside the loop"; "I was
wondering why my model wasn't converging well!").

## How to fix it

Enter the block once per batch, inside the loop:

```python
for batch in train_dataloader:
    with accelerator.accumulate(model):
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
```

## When preflight stays silent

* The loop inside the block does not both run backward and step the optimizer on each
  iteration (a loop over the micro-batches of one step, with the step after it).
* Every `Accelerator(...)` of the file has a window of 1 (no `gradient_accumulation_steps`, or a
  literal 1, no plugin, no `**kwargs`): nothing is skipped then (PF416 reports an `accumulate`
  whose window was never given).
* The loop is in a function defined inside the block (it does not run there).
* The file builds its Accelerator and never calls `accelerator.prepare`: an optimizer that was not prepared steps on every
  call whatever `sync_gradients` says (gLM's trainer: `Accelerator(gradient_accumulation_steps=10)`,
  a plain model and optimizer; there the block only makes `accelerator.backward` divide the loss).
"""
    bad_examples = examples("preflight.rules.code._pf534_examples", "PF534_BAD")
    good_examples = examples("preflight.rules.code._pf534_examples", "PF534_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        uses = accelerator_calls(ctx, "accumulate")
        if not uses or _window_is_one(ctx):
            return
        if accelerators(ctx) and not accelerator_calls(ctx, "prepare"):
            return  # built here, nothing prepared: no optimizer step is skipped (backward only divides)
        for call in uses:
            stmt = _with_of(ctx, call)
            if stmt is None:
                continue
            loop = _stepping_loop(stmt)
            if loop is None:
                continue
            yield ctx.finding(
                self, call,
                f"`with {ast.unparse(call)}:` is entered once around the whole loop of training steps: "
                "accumulate() decides on entry whether the step synchronizes gradients and steps the "
                "optimizer, so the decision is taken once for the whole loop (with a window of 4, three "
                "passes in four never step the optimizer nor clear its gradients). Put the with-block inside "
                "the loop, around one batch",
                evidence=[ctx.evidence(loop, "the loop of training steps inside the block")])
