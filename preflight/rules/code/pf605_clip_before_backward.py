"""PF605 clip-before-backward: gradients clipped before the ``backward()`` that produces them."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._clipping import is_clip

_BACKWARDS = ("backward", "manual_backward")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _calls(node: ast.AST, attrs: tuple[str, ...]) -> list[ast.Call]:
    """Calls ``x.<attr>(...)`` under ``node``, not inside a nested function or class."""
    found: list[ast.Call] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur is not node and isinstance(cur, _SCOPES):
            continue
        if isinstance(cur, ast.Call) and isinstance(cur.func, ast.Attribute) and cur.func.attr in attrs:
            found.append(cur)
        stack.extend(ast.iter_child_nodes(cur))
    return found


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


@register
class ClipBeforeBackward(Rule):
    code = "PF605"
    needs_text = ("clip_grad",)
    name = "clip-before-backward"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "`clip_grad_norm_` runs before the `backward()` whose gradients the optimizer then uses"
    explanation = """
## What it finds

In one function, `torch.nn.utils.clip_grad_norm_` (or `clip_grad_value_`, or an
`accelerator.clip_grad_norm_`) followed, in the same block, by `loss.backward()`
(or `accelerator.backward`), with no `backward()` earlier in the function and no
optimizer `step()` between the clip and the backward. The usual place is a helper
that builds the loss and then calls `backward()` itself (a multi-task weighting class's
`backward(losses, shared_parameters)`).

## Why it matters

`clip_grad_norm_` rescales the `.grad` tensors that exist when it is called. Before
this step's `backward()` they are the previous step's gradients, already cleared by
`zero_grad()` (or `None`), so the clip does nothing; `backward()` then writes the new
gradients and the optimizer applies them unclipped. The run trains without the
clipping it was configured with, which shows up only as instability (FAMO issue 4:
"thanks for catching this bug, it should be after").

## How to fix it

Call the clip after `backward()` and before `optimizer.step()`:

```python
loss.backward()
torch.nn.utils.clip_grad_norm_(shared_parameters, max_norm)
optimizer.step()
```

## When preflight stays silent

* A `backward()` runs earlier in the same function (the clip acts on those gradients,
  e.g. a discriminator's clip before the generator's backward).
* An optimizer `step()` runs between the clip and the `backward()` (a loop that clips and
  steps the previous iteration's gradients first, then runs the next backward).
* The clip and the backward are in different functions (the order of the calls is not
  followed across functions).
"""
    bad_examples = examples("preflight.rules.code._pf605_examples", "PF605_BAD")
    good_examples = examples("preflight.rules.code._pf605_examples", "PF605_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for clip in ctx.nodes(ast.Call):
            if not is_clip(clip):
                continue
            scope = ctx.enclosing(clip, *_SCOPES)
            if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            backwards = _calls(scope, _BACKWARDS)
            if any(_pos(b) < _pos(clip) for b in backwards):
                continue
            later = self._later_backward(ctx, clip, scope)
            if later is None:
                continue
            steps = _calls(scope, ("step",))
            if any(_pos(clip) < _pos(s) < _pos(later) for s in steps):
                continue
            yield ctx.finding(
                self, clip,
                f"`{ast.unparse(clip.func)}` runs before `{ast.unparse(later.func)}()`: it clips the gradients left "
                "from the previous step (already zeroed, or None), and the gradients this backward writes reach the "
                "optimizer unclipped. Clip after the backward, before `optimizer.step()`",
                evidence=[ctx.evidence(later, "the backward that comes after the clip")])

    @staticmethod
    def _later_backward(ctx: FileContext, clip: ast.Call, scope: ast.AST) -> Optional[ast.Call]:
        """A backward in a statement after the clip's statement, in the same block or in an enclosing
        block of the function (not inside a loop the clip is not in: that would be the next pass)."""
        node: ast.AST = clip
        while node is not scope:
            parent = ctx.parent(node)
            if parent is None:
                return None
            for field in ("body", "orelse", "finalbody"):
                block = getattr(parent, field, None)
                if isinstance(block, list) and node in block:
                    for st in block[block.index(node) + 1:]:
                        found = _calls(st, _BACKWARDS)
                        if found:
                            return min(found, key=_pos)
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and node in parent.body:
                return None  # leaving a loop body: later statements run after the whole loop
            node = parent
        return None
