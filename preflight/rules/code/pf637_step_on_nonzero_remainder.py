"""PF637 step-on-nonzero-remainder: an accumulation guard whose branches are the wrong way round,
so the optimizer steps on every micro-batch but one of each window."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_BACKWARDS = ("backward", "helper-backward")


def _window(test: ast.expr) -> Optional[tuple[ast.expr, bool]]:
    """``x % n == 0`` -> (n, True); ``x % n != 0`` -> (n, False): the window and whether the body is
    the branch where the remainder is zero. None for any other test, or a literal window of 1."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(right, ast.Constant) and right.value == 0 and not isinstance(right.value, bool)):
        return None
    if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod)):
        return None
    window = left.right
    if isinstance(window, ast.Constant) and not (isinstance(window.value, int) and window.value > 1):
        return None
    if isinstance(left.left, ast.Constant):
        return None
    return window, isinstance(test.ops[0], ast.Eq)


@register
class StepOnNonzeroRemainder(Rule):
    code = "PF637"
    needs_text = ("backward",)
    name = "step-on-nonzero-remainder"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "deepspeed")
    summary = ("A gradient-accumulation guard is inverted: the optimizer steps when `step % n != 0` and only "
               "accumulates when `step % n == 0`, so it steps on n-1 of every n micro-batches")
    explanation = """
## What it finds

Inside a training loop, an `if step % n == 0:` (or `if step % n != 0:`) splits the
micro-batches: one branch runs the backward without an optimizer step (under
`accelerator.no_sync(model)` / `model.no_sync()`, or plainly), the other runs the backward
and `optimizer.step()`. The branch that steps is the one taken when the remainder is
**not** zero (the `else` of `== 0`, or the body of `!= 0`):

```python
for step, batch in enumerate(train_dataloader):
    if step % gradient_accumulation_steps == 0:      # PF637
        with accelerator.no_sync(model):
            accelerator.backward(model(**batch).loss / gradient_accumulation_steps)
    else:
        accelerator.backward(model(**batch).loss / gradient_accumulation_steps)
        optimizer.step()
        optimizer.zero_grad()
```

## Why it matters

The remainder is zero once per window and non-zero n-1 times. With the branches this way
round the optimizer steps on n-1 of every n micro-batches, each with a loss divided by n,
and accumulates only one batch before each of those steps: no accumulation happens, the
effective learning rate shrinks by n, and a schedule sized for `len(loader) // n` steps
runs out after a third of the run (accelerate issue 435: its own `by_feature`
gradient-accumulation example stepped at steps 1, 2, 3, 4, 6, 7, ... with `n = 5`; fixed
in PR 459).

## How to fix it

Accumulate while the window is not complete and step on its last micro-batch:
`if (step + 1) % n != 0:` accumulate (under `no_sync`), `else:` backward and step. Or let
`accelerator.accumulate(model)` decide (with `gradient_accumulation_steps` given to the
`Accelerator`).

## When preflight stays silent

* The step sits in the branch where the remainder is zero (the usual `if (i + 1) % n == 0:
  optimizer.step()`), or the non-zero branch only skips (`continue`) or logs.
* The zero-remainder branch steps an optimizer too (alternating updates, a GAN whose
  critic steps every batch and the generator every n-th), or runs no backward.
* The window is the literal 1.
"""
    bad_examples = examples("preflight.rules.code._pf637_examples", "PF637_BAD")
    good_examples = examples("preflight.rules.code._pf637_examples", "PF637_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        if not any(e.kind == "step" for e in steps.events):
            return
        scopes = steps.scopes
        for guard in ctx.nodes(ast.If):
            found = _window(guard.test)
            if found is None or not guard.orelse:
                continue
            window, body_is_zero = found
            fn = scopes.function_of(guard)
            if fn is None or scopes.loop_of(guard) is None:
                continue
            body = [e for s in guard.body for e in steps.inside(fn, s)]
            orelse = [e for s in guard.orelse for e in steps.inside(fn, s)]
            zero, nonzero = (body, orelse) if body_is_zero else (orelse, body)
            stepped = [e for e in nonzero if e.kind == "step"]
            if not stepped or not any(e.kind in _BACKWARDS for e in zero):
                continue
            if any(e.kind in ("step", "opaque") for e in zero):
                continue
            yield self._report(ctx, guard, window, stepped[0], next(e for e in zero if e.kind in _BACKWARDS),
                               body_is_zero)

    def _report(self, ctx: FileContext, guard: ast.If, window: ast.expr, step: GradEvent,
                backward: GradEvent, body_is_zero: bool) -> Finding:
        n = ast.unparse(window)
        test = ast.unparse(guard.test)
        where = "its `else` branch" if body_is_zero else "its body"
        message = (f"`if {test}:` is an accumulation guard the wrong way round: `{ast.unparse(step.node)}` sits "
                   f"in {where}, which runs when the remainder is NOT zero, i.e. on {n} - 1 of every {n} "
                   f"micro-batches, and the branch that only accumulates runs once per window. The optimizer "
                   f"steps almost every batch with a loss divided for {n}-batch accumulation (and a schedule "
                   f"sized for len(loader) // {n} steps ends early). Accumulate while `(step + 1) % {n} != 0` "
                   "and step on the window's last micro-batch")
        evidence = [ctx.evidence(backward.node, "this branch only accumulates (no optimizer step)"),
                    ctx.evidence(step.node, "the optimizer steps in the other branch")]
        return ctx.finding(self, guard, message, evidence=evidence)
