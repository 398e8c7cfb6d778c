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


def _window_texts(ctx: FileContext) -> set[str]:
    """The source text of each ``Accelerator(gradient_accumulation_steps=...)`` value of the file."""
    return {ast.unparse(w) for w in (kwarg(c, "gradient_accumulation_steps") for c in accelerators(ctx))
            if w is not None}


def _draws_batches(loop: ast.AST, windows: set[str]) -> bool:
    """A loop that draws the micro-batches of a window: ``for _ in range(<the Accelerator's window>)``
    (or a count named after accumulation), or one that pulls batches with ``next(...)``."""
    it = getattr(loop, "iter", None)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args:
        bound = ast.unparse(it.args[-1] if len(it.args) == 1 else it.args[1])
        if bound in windows or "accum" in bound.lower():
            return True
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "next"
               for n in _walk_same_scope(getattr(loop, "body", [])))


def _window_loop(ctx: FileContext, with_stmt: ast.AST) -> Optional[ast.AST]:
    """A loop in the block over the micro-batches of one accumulation window: it runs backward on
    each iteration but no optimizer step, draws new batches (``range(window)``, ``next(it)``), and
    the block steps the optimizer after it. Not a loop over the chunks of the current batch."""
    body: list[ast.stmt] = getattr(with_stmt, "body", [])
    windows = _window_texts(ctx)
    for stmt in body:
        if not isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            continue
        called = _method_calls(stmt.body)
        if "backward" not in called or "step" in called or not _draws_batches(stmt, windows):
            continue
        after = body[body.index(stmt) + 1:]
        if "step" in _method_calls(after):
            return stmt
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

It also finds the block entered once per accumulation window around a loop that draws the
window's micro-batches (`for _ in range(gradient_accumulation_steps): batch = next(it)`, with
`backward` inside and `optimizer.step()` after the loop, inside the block) while the Accelerator
itself has a window above 1: the accumulation is counted twice (the shape reported in
accelerate PR 1817, "Improve docs on grad accumulation").

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
  iteration (a loop over the chunks of the current batch, with the step after it), unless it draws
  the micro-batches of a whole window (below).
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
                window = _window_loop(ctx, stmt)
                if window is not None:
                    yield ctx.finding(
                        self, call,
                        f"`with {ast.unparse(call)}:` is entered once around a loop over the micro-batches of a "
                        "window, with the optimizer step after it: accumulate() counts one accumulation step per "
                        "entry, not per backward, so with the Accelerator's window of N the prepared optimizer only "
                        "really steps (and clears gradients) on every N-th entry, N x N micro-batches, and gradients "
                        "are synchronized per entry. Enter accumulate() around each micro-batch's forward/backward "
                        "and call step/zero_grad inside it (or drop the Accelerator's window and accumulate by hand)",
                        evidence=[ctx.evidence(window, "the loop over the micro-batches inside the block")])
                continue
            yield ctx.finding(
                self, call,
                f"`with {ast.unparse(call)}:` is entered once around the whole loop of training steps: "
                "accumulate() decides on entry whether the step synchronizes gradients and steps the "
                "optimizer, so the decision is taken once for the whole loop (with a window of 4, three "
                "passes in four never step the optimizer nor clear its gradients). Put the with-block inside "
                "the loop, around one batch",
                evidence=[ctx.evidence(loop, "the loop of training steps inside the block")])
